import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { UseCases } from '../core/application/use-cases.js';
import { EXECUTION_JOB, FLOW_TRIGGER_JOB } from '../core/engine/jobs.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';
import type { Config } from './config.js';

const HOUR_MS = 60 * 60_000;
/** How often listener leases are renewed and free subscriptions taken (leases last 10 s). */
const LISTENER_TICK_MS = 1_000;

export interface EngineWorker {
  readonly id: string;
  /** Stops taking runs and waits for the ones in flight (the queue's time limit applies). */
  stop(): Promise<void>;
}

/** Runs `task` every `ms`, never two at once; a failure is logged and the next tick tries again. */
const every = (ms: number, task: () => Promise<unknown>, logger: Logger, what: string) => {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    task()
      .catch((error: unknown) => logger.error({ err: error }, `${what} failed`))
      .finally(() => {
        busy = false;
      });
  }, ms);
  timer.unref();
  return timer;
};

/**
 * The engine's side of a process: takes runs and trigger firings from the queue, keeps its
 * leases alive, sends stranded runs back to the queue and prunes old executions, expired sign-in
 * records and (when a number to keep is set) old flow versions.
 */
export const startEngineWorker = async (
  useCases: UseCases,
  queue: JobQueue,
  config: Pick<Config, 'workerConcurrency' | 'executionLeaseMs' | 'executionRetentionMs' | 'flowVersionsKeep'>,
  logger: Logger,
): Promise<EngineWorker> => {
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const inFlight = new Set<string>();

  await useCases.engine.reconcileTriggers();
  await queue.work(
    EXECUTION_JOB,
    async (job) => {
      const executionId = String(job.payload.executionId);
      inFlight.add(executionId);
      try {
        await useCases.runExecution(executionId, id);
      } finally {
        inFlight.delete(executionId);
      }
    },
    { concurrency: config.workerConcurrency },
  );
  await queue.work(FLOW_TRIGGER_JOB, (job) => useCases.fireTrigger(String(job.payload.flowId)), { concurrency: 4 });
  const listeners = useCases.listeners(id);

  const lease = config.executionLeaseMs;
  // After a stall (a loaded machine, a long GC) this process's own leases may have run out while
  // its runs go on: renewed first, its reaper never hands its own live runs to a second turn.
  const reap = async () => {
    await useCases.engine.renewLeases(id, [...inFlight]);
    return useCases.engine.reapStranded();
  };
  const timers = [
    every(Math.max(100, lease / 3), () => useCases.engine.renewLeases(id, [...inFlight]), logger, 'lease renewal'),
    every(Math.max(200, lease / 2), reap, logger, 'reaping stranded runs'),
    every(LISTENER_TICK_MS, () => listeners.tick(), logger, 'listener supervision'),
    every(HOUR_MS, () => useCases.engine.pruneExecutions(config.executionRetentionMs), logger, 'pruning executions'),
    every(HOUR_MS, () => useCases.engine.pruneListenerMessages(), logger, 'pruning listener messages'),
    every(HOUR_MS, () => useCases.engine.pruneSignInRecords(), logger, 'pruning sign-in records'),
  ];
  const keep = config.flowVersionsKeep;
  if (keep !== null) {
    timers.push(every(HOUR_MS, () => useCases.engine.pruneFlowVersions(keep), logger, 'pruning flow versions'));
  }
  // What a process that died left behind goes on now rather than at the first tick.
  await useCases.engine.reapStranded();
  await listeners.tick().catch((error: unknown) => logger.error({ err: error }, 'listener supervision failed'));
  logger.info({ worker: id, concurrency: config.workerConcurrency }, 'engine worker started');

  return {
    id,
    async stop() {
      for (const timer of timers) clearInterval(timer);
      // Closed first: a message taken now would start a run no worker here takes any more.
      await listeners.stop();
      await queue.stop();
    },
  };
};
