import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestContext } from 'vitest';
import { migrateToLatest } from '../../adapters/persistence/migrate.js';
import { type DatabaseHandle, openDatabase } from '../../adapters/persistence/open-database.js';
import { createLocalJobQueue } from '../../adapters/queue/local/local-job-queue.js';
import { createPgBossJobQueue } from '../../adapters/queue/pg-boss/pg-boss-job-queue.js';
import type { Job, JobHandler, JobQueue } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import { createTestDatabase, DIALECTS, type DialectName, type TestDatabase } from '../support/databases.js';
import { silentLogger } from './persistence-fixture.js';

export interface QueueSettings {
  readonly leaseMs?: number;
  readonly pollIntervalMs?: number;
  readonly heartbeatIntervalMs?: number;
  readonly stopTimeoutMs?: number;
  readonly logger?: Logger;
}

/** One adapter on one database, with the short settings that keep the suite fast. */
export interface QueueKind {
  readonly label: string;
  readonly dialect: DialectName;
  readonly local: boolean;
  /** The shortest wait before a first retry these settings allow. */
  readonly firstRetryMinMs: number;
  /** A lease short enough to run out in a test, without renewal. */
  readonly expiringLease: QueueSettings;
  open(db: DatabaseHandle, url: string, settings: QueueSettings, bossSchema: string): JobQueue;
}

export const MAX_ATTEMPTS = 2;
const common = { maxAttempts: MAX_ATTEMPTS, pollIntervalMs: 50, stopTimeoutMs: 3000 };

const localKind = (dialect: DialectName): QueueKind => ({
  label: `local on ${dialect}`,
  dialect,
  local: true,
  // Equal jitter: the first retry waits between half and all of retryDelayMs.
  firstRetryMinMs: 100,
  expiringLease: { leaseMs: 300, heartbeatIntervalMs: 60_000 },
  open: (db, _url, settings) =>
    createLocalJobQueue({ db: db.db, logger: silentLogger, retryDelayMs: 200, leaseMs: 5000, ...common, ...settings }),
});

const pgBossKind: QueueKind = {
  label: 'pg-boss',
  dialect: 'postgres',
  local: false,
  // pg-boss retries after whole seconds: between 1 and 2 s for the first retry with a 1 s delay.
  firstRetryMinMs: 1000,
  expiringLease: { leaseMs: 1000 },
  open: (db, url, settings, bossSchema) =>
    createPgBossJobQueue({
      connectionString: url,
      schema: bossSchema,
      db: db.db,
      logger: silentLogger,
      poolSize: 4,
      retryDelayMs: 1000,
      maintenanceIntervalSeconds: 1,
      ...common,
      ...settings,
    }),
};

/** Every queue this run covers: the Postgres ones when TEST_DATABASE_URL is set. */
export const QUEUE_KINDS: readonly QueueKind[] = DIALECTS.includes('postgres')
  ? [localKind('sqlite'), localKind('postgres'), pgBossKind]
  : [localKind('sqlite')];

export interface QueueFixture {
  readonly db: DatabaseHandle;
  readonly testDb: TestDatabase;
  /** pg-boss's schema for this suite's queues. */
  readonly bossSchema: string;
  /**
   * A queue, stopped when the test finishes (the tests of a suite run concurrently).
   * `otherProcess`: on a connection pool of its own, where that means anything.
   */
  queue(test: Pick<TestContext, 'onTestFinished'>, settings?: QueueSettings & { otherProcess?: boolean }): JobQueue;
  close(): Promise<void>;
}

/** A migrated database of the kind's dialect, shared by the tests of one suite. */
export const openQueueFixture = async (kind: QueueKind): Promise<QueueFixture> => {
  const testDb = await createTestDatabase(kind.dialect);
  const db = openDatabase(testDb.url, silentLogger);
  await migrateToLatest(db.db);
  // Postgres stands in for a second process with a second pool; SQLite in memory has one handle.
  let second: DatabaseHandle | null = null;
  const bossSchema = `boss_${randomBytes(6).toString('hex')}`;
  return {
    db,
    testDb,
    bossSchema,
    queue(test, { otherProcess = false, ...settings } = {}) {
      if (otherProcess && kind.dialect === 'postgres') second ??= openDatabase(testDb.url, silentLogger);
      const queue = kind.open(otherProcess && second ? second : db, testDb.url, settings, bossSchema);
      test.onTestFinished(() => queue.stop());
      return queue;
    },
    async close() {
      if (!kind.local && process.env.TEST_DATABASE_URL) {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        await client.query(`drop schema if exists ${bossSchema} cascade`).finally(() => client.end());
      }
      await second?.close();
      await db.close();
      await testDb.drop();
    },
  };
};

export interface Delivery extends Job {
  readonly atMs: number;
}

/** A handler that records deliveries and runs `behaviour` for each. */
export const recorder = (behaviour: (job: Job) => Promise<void> | void = () => {}) => {
  const deliveries: Delivery[] = [];
  const handler: JobHandler = async (job) => {
    deliveries.push({ ...job, atMs: Date.now() });
    await behaviour(job);
  };
  return { deliveries, handler };
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const waitUntil = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 8000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
};

/** A promise and the function that settles it, for handlers a test holds open. */
export const gate = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
};

let counter = 0;
/** A queue name of its own per test, so that jobs of one test never reach another. */
export const queueName = () => `test.q${++counter}`;
