import { type Insertable, type Kysely, sql } from 'kysely';
import type { Job, JobQueue } from '../../../ports/job-queue.js';
import type { Logger } from '../../../ports/logger.js';
import { orderedId } from '../../ordered-ids.js';
import { createQueueRuntime, type QueueBackend } from '../runtime.js';
import { createSendBatcher } from '../send-batcher.js';
import { isPostgres, type QueueDb, type QueueTables, readPayload } from '../tables.js';
import { backoffMs } from './backoff.js';

export interface LocalJobQueueOptions {
  /** The migrated application database (SQLite or Postgres); the queue lives in its `jobs` table. */
  readonly db: Kysely<any>;
  readonly logger: Logger;
  /** Deliveries before a job is kept as failed (default 5). */
  readonly maxAttempts?: number;
  /** Wait before the first retry; doubles on each further one, with jitter (default 1 s). */
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
  /** A claimed job goes to another worker when its lease is not renewed for this long (default 30 s). */
  readonly leaseMs?: number;
  /** Renewal period of running jobs' leases (default a third of the lease). */
  readonly heartbeatIntervalMs?: number;
  /** How often idle workers look for jobs of other processes and delays come due (default 1 s). */
  readonly pollIntervalMs?: number;
  /** How long stop() waits for running handlers (default 10 s). */
  readonly stopTimeoutMs?: number;
}

type NewJob = Insertable<QueueTables['jobs']> & { readonly id: string };

/** Ids per statement, well under SQLite's and Postgres' limits on bound parameters. */
const CHUNK = 500;
const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/**
 * The embedded queue: jobs are rows of the application database, so a job sent in a process
 * survives its crash, and one SQLite file (or one Postgres schema) holds everything. A claim is
 * one UPDATE ... RETURNING: on SQLite the single writer serialises claims; on Postgres
 * `FOR UPDATE SKIP LOCKED` lets concurrent workers take disjoint jobs without waiting.
 */
export const createLocalJobQueue = (options: LocalJobQueueOptions): JobQueue => {
  const db = options.db as QueueDb;
  const { logger } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60 * 60_000;
  const leaseMs = options.leaseMs ?? 30_000;
  const skipLocked = isPostgres(db);
  const batchedInsert = createSendBatcher<NewJob>(async (rows) => {
    const inserted = await db
      .insertInto('jobs')
      .values([...rows])
      // Only the partial unique index on pending singleton keys can conflict.
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute();
    return new Set(inserted.map((row) => row.id));
  });

  const makeAvailableIfActive = (ids: readonly string[], availableAtMs: number) =>
    Promise.all(
      chunks(ids).map((part) =>
        db
          .updateTable('jobs')
          .set({ available_at_ms: availableAtMs })
          .where('id', 'in', part)
          .where('state', '=', 'active')
          .execute(),
      ),
    );

  const backend: QueueBackend = {
    send(request, trx) {
      const nowMs = Date.now();
      const row: NewJob = {
        // Time-ordered: new jobs go to the end of the index, not to a random page of it.
        id: orderedId(),
        name: request.name,
        payload: JSON.stringify(request.payload),
        state: 'created',
        attempt: 0,
        available_at_ms: request.startAfter?.getTime() ?? nowMs,
        singleton_key: request.singletonKey ?? null,
        last_error: null,
        created_at_ms: nowMs,
      };
      if (!trx) return batchedInsert(row);
      return trx
        .insertInto('jobs')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst()
        .then((inserted) => inserted?.id ?? null);
    },

    async claim(name, limit) {
      const nowMs = Date.now();
      let due = db
        .selectFrom('jobs')
        .select('id')
        .where('name', '=', name)
        .where('available_at_ms', '<=', nowMs)
        .orderBy('available_at_ms')
        .limit(limit);
      if (skipLocked) due = due.forUpdate().skipLocked();
      // A due active job is one whose lease ran out: its worker died or hung. It goes out again.
      const rows = await db
        .updateTable('jobs')
        .set({ state: 'active', attempt: sql<number>`attempt + 1`, available_at_ms: nowMs + leaseMs })
        .where('id', 'in', due)
        .returning(['id', 'name', 'payload', 'attempt'])
        .execute();
      const jobs: Job[] = [];
      for (const row of rows) {
        const job = { id: row.id, name: row.name, payload: readPayload(row.payload), attempt: row.attempt };
        if (job.attempt <= maxAttempts) jobs.push(job);
        else {
          // Its worker died on every attempt: most likely the job itself kills the process.
          logger.error({ queue: name, jobId: job.id, attempt: job.attempt }, 'job lost its lease on every attempt');
          await backend.fail(job, 'its lease expired on every attempt', true);
        }
      }
      return jobs;
    },

    async complete(_name, ids) {
      await Promise.all(chunks(ids).map((part) => db.deleteFrom('jobs').where('id', 'in', part).execute()));
    },

    async fail(job, message, final) {
      const retryAtMs = final ? null : Date.now() + backoffMs(job.attempt, retryDelayMs, maxRetryDelayMs);
      // The attempt guards against a worker whose lease expired meanwhile: the job is someone else's.
      await db
        .updateTable('jobs')
        .set({ state: final ? 'failed' : 'retry', available_at_ms: retryAtMs, last_error: message.slice(0, 4000) })
        .where('id', '=', job.id)
        .where('attempt', '=', job.attempt)
        .where('state', '=', 'active')
        .execute();
      return { retryAtMs };
    },

    async heartbeat(_name, ids) {
      await makeAvailableIfActive(ids, Date.now() + leaseMs);
    },

    async release(_name, jobs) {
      await makeAvailableIfActive(
        jobs.map((job) => job.id),
        Date.now(),
      );
    },

    async depth() {
      const rows = await db
        .selectFrom('jobs')
        .select(['name', (eb) => eb.fn.countAll<number | string>().as('jobs')])
        .where('available_at_ms', 'is not', null)
        .groupBy('name')
        .execute();
      return Object.fromEntries(rows.map((row) => [row.name, Number(row.jobs)]));
    },
  };

  return createQueueRuntime(backend, db, logger, {
    maxAttempts,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? Math.max(1, Math.floor(leaseMs / 3)),
    stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
  });
};
