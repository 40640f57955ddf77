import type { Actor } from '../../domain/actor.js';
import { type DomainError, triggerNotDeletable } from '../../domain/errors.js';
import { closeGap } from '../../domain/flow-rules.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadEditableStep } from '../flows/load-flow.js';

/** Removes an action of a draft flow; the steps after it move up. A flow always keeps its trigger. */
export const makeDeleteStep =
  ({ repos, uow, clock }: Pick<CoreDeps, 'repos' | 'uow' | 'clock'>) =>
  async (actor: Actor, stepId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadEditableStep(repos, actor, stepId);
    if (!loaded.ok) return loaded;
    const { step } = loaded.value;
    if (step.type === 'trigger') return err(triggerNotDeletable());
    return uow.run(async (tx) => {
      await tx.flows.lock(step.flowId);
      const now = clock.now();
      const moves = closeGap(await tx.steps.listByFlow(step.flowId), stepId);
      await tx.steps.delete(stepId);
      for (const move of moves) await tx.steps.update(move.id, { position: move.position }, now);
      await tx.flows.update(step.flowId, {}, now);
      return ok(undefined);
    });
  };
