import { LISTENER_DEDUPE_MS } from '../domain/listener.js';
import type { EngineDeps } from './deps.js';
import { makeSyncFlowTrigger } from './flow-triggers.js';
import { EXECUTION_JOB } from './jobs.js';
import { wakeRun } from './wake-run.js';

type Deps = Pick<EngineDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'>;

const BATCH = 500;

/** Background upkeep of the engine, run on a timer by every worker process. */
export const makeEngineMaintenance = (deps: Deps) => {
  const { repos, clock, queue, logger } = deps;
  const { leaseMs, unclaimedAfterMs } = deps.settings.engine;

  return {
    /** Keeps this worker's hold on the runs it is working on. */
    async renewLeases(owner: string, executionIds: readonly string[]) {
      await repos.executions.renew(executionIds, { owner, until: new Date(clock.now().getTime() + leaseMs) });
    },

    /**
     * Sends runs that have no worker back to the queue: leases that ran out (a worker died),
     * runs whose job was lost before the queue had it, waits that came due, waits whose wake was
     * lost (what they waited for came, and the process that should have woken them died). The singleton key
     * keeps one pending job per run however many reapers see it.
     */
    async reapStranded(): Promise<number> {
      const now = clock.now();
      const ids = await repos.executions.findStranded(now, new Date(now.getTime() - unclaimedAfterMs), BATCH);
      for (const executionId of ids) {
        await queue.send({ name: EXECUTION_JOB, payload: { executionId }, singletonKey: executionId });
      }
      // A wake that died with its process (a called run ended, a signal came): the run is woken now.
      const unwoken = await repos.executions.findUnwoken(BATCH);
      for (const executionId of unwoken) await wakeRun(deps, executionId);
      const count = ids.length + unwoken.length;
      if (count > 0) logger.info({ count, unwoken: unwoken.length }, 'stranded runs sent to the queue again');
      return count;
    },

    /** Deletes finished runs older than the retention window, a batch at a time. */
    async pruneExecutions(retentionMs: number): Promise<number> {
      const cutoff = new Date(clock.now().getTime() - retentionMs);
      let total = 0;
      for (;;) {
        const deleted = await repos.executions.deleteFinishedBefore(cutoff, BATCH);
        total += deleted;
        if (deleted < BATCH) break;
      }
      if (total > 0) logger.info({ count: total }, 'old executions pruned');
      return total;
    },

    /**
     * Retention of flow versions: each flow keeps its newest `keep`, and any older one that its
     * flow runs, its draft was made from, or a run points to (so every run still shows what it ran).
     */
    async pruneFlowVersions(keep: number): Promise<number> {
      let total = 0;
      for (;;) {
        const deleted = await repos.flowVersions.prune(keep, BATCH);
        total += deleted;
        if (deleted < BATCH) break;
      }
      if (total > 0) logger.info({ count: total }, 'old flow versions pruned');
      return total;
    },

    /**
     * Forgets what single sign-on keeps only for a while: AuthnRequests past their time, used
     * assertions that could no longer be accepted anyway, and sessions whose token has expired.
     */
    async pruneSignInRecords(): Promise<number> {
      const now = clock.now();
      const total = (await repos.samlMessages.deleteExpired(now)) + (await repos.samlSessions.deleteExpired(now));
      if (total > 0) logger.info({ count: total }, 'expired sign-in records pruned');
      return total;
    },

    /** Forgets the ids of listener messages accepted so long ago that no redelivery can follow. */
    async pruneListenerMessages(): Promise<number> {
      const total = await repos.listeners.forgetMessages(new Date(clock.now().getTime() - LISTENER_DEDUPE_MS));
      if (total > 0) logger.info({ count: total }, 'old listener message ids pruned');
      return total;
    },

    /**
     * Makes the queue's schedules, the listeners' subscriptions and the vendors' hooks match the
     * published flows (after a crash between the two), and removes the hooks of flows unpublished
     * or deleted meanwhile. A hook the vendor refuses here is logged and asked for again next time.
     */
    async reconcileTriggers(): Promise<void> {
      const sync = makeSyncFlowTrigger(deps);
      for (let page = 1; ; page++) {
        const flows = await repos.flows.list({ ownerId: null, active: true }, { page, perPage: 100 });
        for (const flow of flows.items) {
          const synced = await sync(flow.id);
          if (!synced.ok) logger.warn({ flowId: flow.id, reason: synced.reason }, 'webhook not registered');
        }
        if (page * 100 >= flows.total) break;
      }
      // Each batch removes what it lists: the removal is best effort and always drops the row.
      for (;;) {
        const stale = await repos.flowHooks.listStale(BATCH);
        for (const flowId of stale) await sync(flowId);
        if (stale.length < BATCH) break;
      }
    },
  };
};

export type EngineMaintenance = ReturnType<typeof makeEngineMaintenance>;
