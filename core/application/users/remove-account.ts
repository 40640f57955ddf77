import type { Repositories } from '../../../ports/repositories.js';
import { makeSyncFlowTrigger } from '../../engine/flow-triggers.js';
import type { CoreDeps } from '../deps.js';

/**
 * What removing an account means, whoever does it: the user is soft-deleted (their data is purged
 * later), every credential they hold stops working at once, and their flows stop: published ones
 * are unpublished, and a flow whose owner is removed neither takes webhooks nor runs (the engine
 * checks the owner), nor may a step use the owner's connections. Returns the flows it unpublished,
 * whose schedules `stopRemovedFlows` takes down once the removal is committed.
 */
export const removeAccount = async (tx: Repositories, userId: string, now: Date): Promise<string[]> => {
  await tx.users.softDelete(userId, now);
  await tx.accessTokens.revokeAllOfUser(userId, now);
  await tx.apiTokens.deleteAllOfUser(userId);
  return tx.flows.deactivateAllOfUser(userId, now);
};

type ScheduleDeps = Pick<
  CoreDeps,
  'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'
>;

/**
 * Takes down the queue schedules of a removed user's flows. Should the process die before, a
 * schedule left behind fires for nothing: the fired trigger finds its flow unpublished.
 */
export const stopRemovedFlows = async (deps: ScheduleDeps, flowIds: readonly string[]): Promise<void> => {
  const sync = makeSyncFlowTrigger(deps);
  for (const flowId of flowIds) await sync(flowId);
};
