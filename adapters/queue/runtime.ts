import type { JobQueue, JobRequest } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import { Scheduler } from './scheduler.js';
import type { QueueDb } from './tables.js';
import { type JobStore, Worker } from './worker.js';

/** A job store that also takes jobs in and counts them: what differs between the two adapters. */
export interface QueueBackend extends JobStore {
  /** Inserts a job; inside `trx` (a transaction on the application database) when given. */
  send(request: JobRequest, trx?: QueueDb): Promise<string | null>;
  depth(): Promise<Record<string, number>>;
  /** Readies sending to these queues; nothing to do where sending needs no setup. */
  prepare?(names: readonly string[]): Promise<void>;
  /**
   * Hears of jobs other processes send, where the backend can: `onSent` gets the queue's name.
   * Resolves once listening (or once it failed and retries in the background: polling remains).
   */
  listen?(onSent: (name: string) => void): Promise<void>;
  close?(): Promise<void>;
}

export interface RuntimeSettings {
  /** Deliveries of a job before it is kept as failed. */
  readonly maxAttempts: number;
  /** How often an idle worker looks for jobs sent by other processes or come due. */
  readonly pollIntervalMs: number;
  readonly heartbeatIntervalMs: number;
  /** How long stop() waits for running handlers before releasing their jobs. */
  readonly stopTimeoutMs: number;
}

/** The port on top of a backend: workers, their wake-ups, and the schedules of `job_schedules`. */
export const createQueueRuntime = (
  backend: QueueBackend,
  db: QueueDb,
  logger: Logger,
  settings: RuntimeSettings,
): JobQueue => {
  const workers: Worker[] = [];
  const scheduler = new Scheduler(db, (trx, request) => backend.send(request, trx), settings.pollIntervalMs, logger);
  let stopped = false;
  let listening: Promise<void> | null = null;

  return {
    async send(request) {
      const id = await backend.send(request);
      // A worker of this process hears of the job at once (or when it comes due) instead of at its next poll.
      if (id !== null) {
        const dueMs = request.startAfter?.getTime() ?? 0;
        for (const worker of workers) if (worker.name === request.name) worker.wakeAt(dueMs);
      }
      return id;
    },
    prepare: async (names) => {
      await backend.prepare?.(names);
    },
    schedule: (key, cron, timezone, request) => scheduler.schedule(key, cron, timezone, request),
    unschedule: (key) => scheduler.unschedule(key),
    async work(name, handler, { concurrency }) {
      if (stopped) throw new Error('The job queue is stopped.');
      if (!Number.isInteger(concurrency) || concurrency < 1) {
        throw new Error(`Concurrency must be a whole number of at least 1, not ${concurrency}.`);
      }
      const worker = new Worker(name, handler, backend, { ...settings, concurrency }, logger);
      workers.push(worker);
      worker.start();
      scheduler.start();
      listening ??=
        backend.listen?.((sent) => {
          for (const each of workers) if (each.name === sent) each.nudge();
        }) ?? Promise.resolve();
      await listening;
    },
    depth: () => backend.depth(),
    async stop() {
      stopped = true;
      await scheduler.stop();
      await Promise.all(workers.map((worker) => worker.stop()));
      await backend.close?.();
    },
  };
};
