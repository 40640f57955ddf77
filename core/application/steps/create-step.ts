import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import { emptyStep, placeAfter } from '../../domain/flow-rules.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { type BasedOn, editDraft, type Revised } from '../flows/draft.js';
import { type StepView, stepView } from '../flows/flow-views.js';
import { loadFlow } from '../flows/load-flow.js';

/** An empty action right after the given step, in the draft; the steps after it move down one place. */
export const makeCreateStep =
  ({ repos, uow, clock, ids, apps }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps'>) =>
  async (actor: Actor, flowId: string, input: { readonly previousStepId: string }, basedOn?: BasedOn) => {
    const loaded = await loadFlow(repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    const now = clock.now();
    return uow.run((tx) =>
      editDraft(tx, flowId, basedOn, now, async (draftRevision): Promise<Result<Revised<StepView>, DomainError>> => {
        const id = ids.next();
        const placement = placeAfter(await tx.steps.listByFlow(flowId), input.previousStepId, id);
        if (!placement) return err(invalidInput({ previousStepId: ['is not a step of this flow.'] }));
        for (const move of placement)
          if (move.id !== id) await tx.steps.update(move.id, { position: move.position }, now);
        const position = placement.find((move) => move.id === id)?.position ?? 0;
        await tx.steps.insert([
          { ...emptyStep(id, position, 'action'), flowId, status: 'incomplete', appVersion: null, now },
        ]);
        const step = await tx.steps.findById(id);
        return step ? ok({ value: stepView(apps, step), draftRevision }) : err(notFound('Step'));
      }),
    );
  };
