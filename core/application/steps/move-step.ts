import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { arranged, type PlaceInput, placeMoved, placeOf, structureRefusal } from '../../domain/step-tree.js';
import type { CoreDeps } from '../deps.js';
import { type BasedOn, editDraft, type Revised } from '../flows/draft.js';
import { type StepView, stepView } from '../flows/flow-views.js';
import { loadStep } from '../flows/load-flow.js';
import { writeArrangement } from './tree-writes.js';

/**
 * Moves a step of a flow's draft, with every step inside it, to another place (see `placeOf`): in
 * or out of a branch or a loop, or among its siblings. Refused when the tree it makes is not one
 * (`structureRefusal`: a branch outside a paths step, a second fallback, too deep...) or when the
 * place is inside the step itself. Answers the step where it is now.
 */
export const makeMoveStep =
  ({ repos, uow, clock, apps }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'>) =>
  async (
    actor: Actor,
    stepId: string,
    input: PlaceInput,
    basedOn?: BasedOn,
  ): Promise<Result<Revised<StepView>, DomainError>> => {
    const loaded = await loadStep(repos, actor, stepId, 'manage');
    if (!loaded.ok) return loaded;
    const { flowId } = loaded.value.step;
    const now = clock.now();
    return uow.run((tx) =>
      editDraft(tx, flowId, basedOn, now, async (draftRevision): Promise<Result<Revised<StepView>, DomainError>> => {
        const steps = await tx.steps.listByFlow(flowId);
        const place = placeOf(steps, input);
        if (!place.ok) return place;
        const placed = placeMoved(steps, stepId, place.value);
        if (!placed.ok) return placed;
        const refused = structureRefusal(arranged(steps, placed.value));
        if (refused) return err(refused);
        await writeArrangement(tx, steps, placed.value, now);
        const step = await tx.steps.findById(stepId);
        return step ? ok({ value: stepView(apps, step), draftRevision }) : err(notFound('Step'));
      }),
    );
  };
