/**
 * Jobs per second through each JobQueue adapter: send, deliver to an empty handler, complete.
 * SQLite (a file in a temporary folder) always; local-on-Postgres and pg-boss when
 * TEST_DATABASE_URL is set (each in a schema of its own, dropped afterwards).
 *
 *   npx tsx scripts/bench-queue.ts [jobs=20000] [concurrency=50] [senders=64]
 *
 * `senders` is how many sends are in flight at once, as many request handlers would have; with
 * one, every send waits for its own commit.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrateToLatest } from '../adapters/persistence/migrate.js';
import { type DatabaseHandle, openDatabase } from '../adapters/persistence/open-database.js';
import { createLocalJobQueue } from '../adapters/queue/local/local-job-queue.js';
import { createPgBossJobQueue } from '../adapters/queue/pg-boss/pg-boss-job-queue.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';

const jobs = Number(process.argv[2] ?? 20_000);
const concurrency = Number(process.argv[3] ?? 50);
const senders = Number(process.argv[4] ?? 64);
const noop = () => {};
const logger: Logger = {
  debug: noop,
  info: noop,
  warn: noop,
  error: (fields, message) => process.stderr.write(`${message} ${JSON.stringify(fields)}\n`),
};

const run = async (label: string, queue: JobQueue) => {
  let handled = 0;
  let allHandled = () => {};
  const done = new Promise<void>((resolve) => {
    allHandled = resolve;
  });
  await queue.work(
    'bench',
    async () => {
      handled += 1;
      if (handled === jobs) allHandled();
    },
    { concurrency },
  );
  const startedMs = performance.now();
  let next = 0;
  const sender = async () => {
    while (next < jobs) {
      next += 1;
      await queue.send({ name: 'bench', payload: { executionId: `e-${next}` } });
    }
  };
  await Promise.all(Array.from({ length: senders }, sender));
  const sentMs = performance.now();
  await done;
  // stop() writes the last completions, so the time includes every job's deletion.
  await queue.stop();
  const endedMs = performance.now();
  const rate = (n: number, ms: number) => Math.round((n / ms) * 1000).toLocaleString('en');
  console.log(
    `${label.padEnd(20)} ${rate(jobs, endedMs - startedMs).padStart(7)} jobs/s send+deliver+complete` +
      `  (sending alone took ${Math.round(sentMs - startedMs)} ms; ${jobs} jobs, concurrency ${concurrency}, ${senders} senders)`,
  );
};

const migrated = async (url: string): Promise<DatabaseHandle> => {
  const handle = openDatabase(url, logger);
  await migrateToLatest(handle.db);
  return handle;
};

const sqlite = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'conveyor-bench-'));
  const handle = await migrated(join(dir, 'conveyor.db'));
  try {
    await run('local on SQLite', createLocalJobQueue({ db: handle.db, logger }));
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

const postgres = async (baseUrl: string) => {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const handle = await migrated(url.toString());
  try {
    await run('local on Postgres', createLocalJobQueue({ db: handle.db, logger }));
    const connectionString = url.toString();
    await run('pg-boss', createPgBossJobQueue({ connectionString, schema: `${schema}_boss`, db: handle.db, logger }));
  } finally {
    await handle.close();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`drop schema if exists ${schema}_boss cascade`);
    await admin.end();
  }
};

await sqlite();
if (process.env.TEST_DATABASE_URL) await postgres(process.env.TEST_DATABASE_URL);
else console.log('TEST_DATABASE_URL is not set: the Postgres adapters are not measured.');
