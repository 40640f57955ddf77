import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadFlow } from './load-flow.js';

/**
 * Deletes a flow with its steps. A published flow goes too: nothing of it is registered outside the
 * database yet (schedules and remote webhooks arrive with the engine, which will undo them here).
 */
export const makeDeleteFlow =
  ({ repos, uow }: Pick<CoreDeps, 'repos' | 'uow'>) =>
  async (actor: Actor, flowId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadFlow(repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) => {
      await tx.flows.delete(flowId);
      return ok(undefined);
    });
  };
