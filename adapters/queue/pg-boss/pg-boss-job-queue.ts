import { randomUUID } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import { errorMessage } from '../../../core/domain/errors.js';
import type { JobPayload, JobQueue } from '../../../ports/job-queue.js';
import type { Logger } from '../../../ports/logger.js';
import { orderedId } from '../../ordered-ids.js';
import { createQueueRuntime, type QueueBackend } from '../runtime.js';
import { createSendBatcher } from '../send-batcher.js';
import type { QueueDb } from '../tables.js';
import { createJobNotifications } from './job-notifications.js';

export interface PgBossJobQueueOptions {
  /** The Postgres database; pg-boss opens its own pool on it. */
  readonly connectionString: string;
  /** pg-boss's own schema, created and migrated by pg-boss at start (default `pgboss`). */
  readonly schema?: string;
  /** The migrated application database: the schedules live in its `job_schedules` table. */
  readonly db: Kysely<any>;
  readonly logger: Logger;
  /** Connections of pg-boss's pool (default 10). */
  readonly poolSize?: number;
  /** Deliveries before a job is kept as failed (default 5). */
  readonly maxAttempts?: number;
  /** Wait before the first retry, in whole seconds (at least 1); doubles with jitter (default 1 s). */
  readonly retryDelayMs?: number;
  /**
   * pg-boss has no lease renewal: a job is handed to another worker this long after it started,
   * running or not. Set it above the longest handler run (default 15 minutes, pg-boss's own).
   */
  readonly leaseMs?: number;
  /** How often idle workers fetch (default 1 s). */
  readonly pollIntervalMs?: number;
  /** How long stop() waits for running handlers (default 10 s). */
  readonly stopTimeoutMs?: number;
  /** pg-boss maintenance (expiring leases, archiving failed jobs), in seconds (default 30). */
  readonly maintenanceIntervalSeconds?: number;
}

/** pg-boss runs its statements through this when it must join a Kysely transaction. */
const inTransaction = (trx: QueueDb): PgBoss.Db => ({
  executeSql: async (text, values) => ({ rows: (await trx.executeQuery(CompiledQuery.raw(text, values))).rows }),
});

const ownKey = (key: string) => `key:${key}`;
const DEADLOCK = '40P01';

/**
 * The JobQueue port on pg-boss 10, for any number of worker processes on Postgres. Differences
 * from the local queue, all from pg-boss:
 * - Leases are not renewed: `leaseMs` is pg-boss's `expireInSeconds`, a time limit per delivery,
 *   and an expired job is retried only at the next maintenance run (`maintenanceIntervalSeconds`),
 *   after its retry delay. A dead worker's jobs therefore return later than on the local queue.
 * - Retry delays are whole seconds, computed by pg-boss (`retryBackoff`: doubling, with jitter).
 * - Jobs still running at stop's time limit are failed (pg-boss has no "release"), which counts
 *   as an attempt.
 * - Every queue uses pg-boss's `short` policy, whose unique index keeps one job per singleton key
 *   in the `created` state. That index also covers jobs without a key (as ''), so each of those
 *   gets a unique key of its own.
 * - Failed jobs stay in pg-boss's tables until its archive and deletion periods pass.
 * - pg-boss's fetch turns a database error into "no jobs", so an outage shows as idle workers
 *   (and pg-boss 'error' events from its maintenance), not as logged claim failures.
 * - Schedules do not use pg-boss's cron (one schedule per queue, at most one firing a minute) but
 *   the shared `job_schedules` scheduler, which sends through pg-boss in its own transaction.
 */
export const createPgBossJobQueue = (options: PgBossJobQueueOptions): JobQueue => {
  const db = options.db as QueueDb;
  const { logger } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const retrySettings = {
    retryLimit: maxAttempts - 1,
    retryDelay: Math.max(1, Math.round((options.retryDelayMs ?? 1000) / 1000)),
    retryBackoff: true,
    expireInSeconds: Math.max(1, Math.ceil((options.leaseMs ?? 15 * 60_000) / 1000)),
  };
  const schema = options.schema ?? 'pgboss';
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema,
    max: options.poolSize ?? 10,
    application_name: 'conveyor-queue',
    schedule: false,
    supervise: true,
    migrate: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });
  // Unhandled, an 'error' event (e.g. the database restarting) would end the process.
  boss.on('error', (error: Error) => logger.error({ err: error.message }, 'pg-boss failed'));

  // pg-boss connects and installs its schema on first use (or when a server prepares the queue it
  // sends to), so a process that never queues anything never connects.
  let started: Promise<unknown> | null = null;
  const start = () => {
    started ??= boss.start();
    return started;
  };
  // Creating a queue attaches a partition to pg-boss's job table; two creations at once can
  // deadlock, so this process creates one at a time and retries when another process collides.
  const queues = new Map<string, Promise<void>>();
  let creating: Promise<unknown> = Promise.resolve();
  const createQueue = async (name: string) => {
    await start();
    for (let attempt = 1; ; attempt++) {
      try {
        return await boss.createQueue(name, { name, policy: 'short', ...retrySettings });
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * attempt));
      }
    }
  };
  const ensureQueue = (name: string): Promise<void> => {
    let ready = queues.get(name);
    if (!ready) {
      ready = creating.then(() => createQueue(name));
      creating = ready.catch(() => {});
      queues.set(name, ready);
      ready.catch(() => queues.delete(name));
    }
    return ready;
  };

  const notifications = createJobNotifications({ connectionString: options.connectionString, schema, logger });
  /** Tells other processes' workers of jobs due now; a lost notification only means a later poll. */
  const notify = (names: Iterable<string>) =>
    Promise.all(
      [...new Set(names)].map((name) =>
        boss
          .getDb()
          .executeSql('select pg_notify($1, $2)', [notifications.channel, name])
          .catch((error: unknown) => {
            logger.debug({ err: errorMessage(error) }, 'job notification failed');
          }),
      ),
    );

  const batchedInsert = createSendBatcher<PgBoss.JobInsert & { readonly id: string }>(async (rows) => {
    await boss.insert([...rows]);
    // Not awaited: the sender's answer (a webhook's ack) does not wait for other processes.
    void notify(rows.filter((row) => row.startAfter === undefined).map((row) => row.name));
    // Each of these jobs has a singleton key of its own, so none was skipped.
    return new Set(rows.map((row) => row.id));
  });

  const backend: QueueBackend = {
    // pg-boss starts (connecting, checking its schema) and creates a queue at its first use: some
    // 0.3-0.9 s on a busy two-core machine, which a server's first webhooks waited for.
    prepare: async (names) => {
      await Promise.all(names.map(ensureQueue));
    },

    async send(request, trx) {
      await ensureQueue(request.name);
      const options = { ...retrySettings, ...(request.startAfter ? { startAfter: request.startAfter } : {}) };
      if (request.singletonKey === undefined && !trx) {
        // Time-ordered: new jobs go to the end of the index, not to a random page of it.
        const id = orderedId();
        return batchedInsert({
          id,
          name: request.name,
          data: { ...request.payload },
          singletonKey: `job:${id}`,
          ...options,
        });
      }
      // pg-boss's batch insert does not say which rows a conflict skipped: singletons go one by one.
      const id = await boss.send(
        request.name,
        { ...request.payload },
        {
          ...options,
          singletonKey: request.singletonKey === undefined ? `job:${randomUUID()}` : ownKey(request.singletonKey),
          ...(trx ? { db: inTransaction(trx) } : {}),
        },
      );
      // A job sent in a transaction is not there before its commit: it is left to the polls.
      if (id !== null && !trx && !request.startAfter) void notify([request.name]);
      return id;
    },

    async claim(name, limit) {
      await ensureQueue(name);
      const jobs = await boss.fetch<JobPayload>(name, { batchSize: limit, includeMetadata: true });
      // pg-boss counts a retry when it hands out a job that started before, failed or expired.
      return jobs.map((job) => ({ id: job.id, name: job.name, payload: job.data, attempt: job.retryCount + 1 }));
    },

    // Deleted rather than completed: completed rows would stay in the job table until archived.
    complete: (name, ids) => boss.deleteJob(name, [...ids]),

    async fail(job, message) {
      await boss.fail(job.name, job.id, { message });
      return { retryAtMs: null };
    },

    release: (name, jobs) =>
      boss.fail(
        name,
        jobs.map((job) => job.id),
      ),

    async depth() {
      if (!started) await start();
      const counts = await Promise.all(
        (await boss.getQueues()).map(
          async (queue) => [queue.name, await boss.getQueueSize(queue.name, { before: 'completed' })] as const,
        ),
      );
      return Object.fromEntries(counts.filter(([, jobs]) => jobs > 0));
    },

    listen: (onSent) => notifications.listen(onSent),

    async close() {
      await notifications.close();
      if (!started) return;
      await started.catch(() => {});
      await boss.stop({ graceful: true, close: true, wait: true, timeout: 1000 });
    },
  };

  return createQueueRuntime(backend, db, logger, {
    maxAttempts,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    // Unused: pg-boss cannot renew a lease.
    heartbeatIntervalMs: 60_000,
    stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
  });
};
