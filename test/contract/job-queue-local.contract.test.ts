import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../adapters/persistence/migrate.js';
import { openDatabase } from '../../adapters/persistence/open-database.js';
import { createLocalJobQueue } from '../../adapters/queue/local/local-job-queue.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { createTestDatabase, DIALECTS } from '../support/databases.js';
import {
  MAX_ATTEMPTS,
  openQueueFixture,
  QUEUE_KINDS,
  type QueueFixture,
  queueName,
  recorder,
  sleep,
  waitUntil,
} from './job-queue-fixture.js';
import { silentLogger } from './persistence-fixture.js';

const LOCAL_KINDS = QUEUE_KINDS.filter((kind) => kind.local);

/** What only the local queue promises beyond the port: its rows, its heartbeat. */
describe.concurrent.each(LOCAL_KINDS)('local job queue ($label)', (kind) => {
  let fx: QueueFixture;
  beforeAll(async () => {
    fx = await openQueueFixture(kind);
  });
  afterAll(() => fx.close());

  it('keeps a job that failed its last attempt as a failed row with its error, and logs it', async (test) => {
    const name = queueName();
    const logger = new CapturingLogger();
    const queue = fx.queue(test, { logger });
    const { deliveries, handler } = recorder(() => {
      throw new Error('the remote API said no');
    });
    await queue.work(name, handler, { concurrency: 1 });
    const id = await queue.send({ name, payload: {} });
    await waitUntil(() => deliveries.length === MAX_ATTEMPTS && logger.text().includes('last time'), 'it gives up');
    const row = await fx.db.db
      .selectFrom('jobs' as any)
      .select(['state', 'attempt', 'last_error', 'available_at_ms'])
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row).toEqual({
      state: 'failed',
      attempt: MAX_ATTEMPTS,
      last_error: 'the remote API said no',
      available_at_ms: null,
    });
    expect(logger.entries.find((entry) => entry.level === 'error')?.fields).toMatchObject({ jobId: id, queue: name });
  });

  it('renews the lease of a handler that outlives it, so no other worker gets the job', async (test) => {
    const name = queueName();
    const slow = recorder(() => sleep(900));
    const slowQueue = fx.queue(test, { leaseMs: 300, heartbeatIntervalMs: 80 });
    await slowQueue.work(name, slow.handler, { concurrency: 1 });
    await slowQueue.send({ name, payload: {} });
    await waitUntil(() => slow.deliveries.length === 1, 'the slow worker takes the job');
    const other = recorder();
    await fx.queue(test, { otherProcess: true }).work(name, other.handler, { concurrency: 1 });
    await sleep(1000);
    expect(other.deliveries).toHaveLength(0);
  });

  it('gives up a job whose worker died on every attempt', async (test) => {
    const name = queueName();
    const stuck = recorder(() => new Promise<void>(() => {}));
    // Each of these workers takes the job, never finishes and never renews: a crash loop.
    const dying = { leaseMs: 100, heartbeatIntervalMs: 60_000, stopTimeoutMs: 10 };
    for (let i = 0; i < MAX_ATTEMPTS + 1; i++) {
      await fx.queue(test, dying).work(name, stuck.handler, { concurrency: 1 });
    }
    await fx.queue(test).send({ name, payload: {} });
    await waitUntil(async () => ((await fx.queue(test).depth())[name] ?? 0) === 0, 'the job is given up');
    expect(stuck.deliveries.map((d) => d.attempt)).toEqual([1, 2]);
  });
});

describe.runIf(DIALECTS.includes('sqlite'))('local job queue on a SQLite file, across a crash', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('delivers again the jobs of a worker killed mid-handler; every job completes, none is lost', async () => {
    const testDb = await createTestDatabase('sqlite', { onDisk: true });
    cleanups.push(() => testDb.drop());
    const handle = openDatabase(testDb.url, silentLogger);
    cleanups.push(() => handle.close());
    await migrateToLatest(handle.db);
    const queue = createLocalJobQueue({ db: handle.db, logger: silentLogger, leaseMs: 400, pollIntervalMs: 20 });
    cleanups.push(() => queue.stop());
    const name = queueName();
    const sent = new Set<string | null>();
    for (let i = 0; i < 40; i++) sent.add(await queue.send({ name, payload: { i } }));

    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/queue-crash-worker.ts', testDb.url, name], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(() => {
      child.kill('SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const lines = (word: string) => output.split('\n').filter((line) => line.startsWith(`${word} `));
    const unfinished = () => {
      const ended = new Set(lines('end').map((line) => line.slice(4)));
      return {
        ended,
        interrupted: lines('start')
          .map((line) => line.slice(6))
          .filter((id) => !ended.has(id)),
      };
    };
    // Killed mid-handler: after a few jobs, while others have started and not ended.
    await waitUntil(
      () => lines('end').length >= 6 && unfinished().interrupted.length > 0,
      'the child handles a few jobs and is in the middle of others',
      15_000,
    );
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const { ended, interrupted } = unfinished();
    expect(interrupted.length).toBeGreaterThan(0);

    const { deliveries, handler } = recorder();
    await queue.work(name, handler, { concurrency: 4 });
    await waitUntil(async () => ((await queue.depth())[name] ?? 0) === 0, 'every job is done', 10_000);
    const handledHere = new Map(deliveries.map((d) => [d.id, d.attempt]));
    for (const id of sent) expect(ended.has(id as string) || handledHere.has(id as string)).toBe(true);
    for (const id of interrupted) expect(handledHere.get(id)).toBeGreaterThanOrEqual(2);
    const left = await handle.db
      .selectFrom('jobs' as any)
      .select('id')
      .execute();
    expect(left).toEqual([]);
  });
});
