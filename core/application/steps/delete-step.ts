import type { Actor } from '../../domain/actor.js';
import { type DomainError, triggerNotDeletable } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { placeWithout } from '../../domain/step-tree.js';
import type { CoreDeps } from '../deps.js';
import { type BasedOn, editDraft } from '../flows/draft.js';
import { loadStep } from '../flows/load-flow.js';
import { writeArrangement } from './tree-writes.js';

/**
 * Removes an action from a flow's draft with every step inside it (a paths step its branches, a
 * branch or a loop its steps), and answers the draft's new revision; the steps after it move up.
 * A flow always keeps its trigger.
 */
export const makeDeleteStep =
  ({ repos, uow, clock }: Pick<CoreDeps, 'repos' | 'uow' | 'clock'>) =>
  async (actor: Actor, stepId: string, basedOn?: BasedOn): Promise<Result<number, DomainError>> => {
    const loaded = await loadStep(repos, actor, stepId, 'manage');
    if (!loaded.ok) return loaded;
    const { step } = loaded.value;
    if (step.type === 'trigger') return err(triggerNotDeletable());
    const now = clock.now();
    return uow.run((tx) =>
      editDraft(tx, step.flowId, basedOn, now, async (draftRevision) => {
        const steps = await tx.steps.listByFlow(step.flowId);
        const { removed, placed } = placeWithout(steps, stepId);
        for (const id of removed) await tx.steps.delete(id);
        await writeArrangement(tx, steps, placed, now);
        return ok(draftRevision);
      }),
    );
  };
