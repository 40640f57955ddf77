import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import { makeSyncFlowTrigger } from '../../engine/flow-triggers.js';
import type { CoreDeps } from '../deps.js';
import { loadFlow } from './load-flow.js';

/** Deletes a flow with its steps and runs; a published flow's schedule goes with it. */
export const makeDeleteFlow =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'>) =>
  async (actor: Actor, flowId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadFlow(deps.repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    const deleted = await deps.uow.run(async (tx) => {
      await tx.flows.delete(flowId);
      return ok(undefined);
    });
    if (deleted.ok) await makeSyncFlowTrigger(deps)(flowId);
    return deleted;
  };
