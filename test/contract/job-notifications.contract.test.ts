import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openQueueFixture,
  QUEUE_KINDS,
  type QueueFixture,
  queueName,
  recorder,
  sleep,
  waitUntil,
} from './job-queue-fixture.js';

// The queues that tell other processes' workers of new jobs: pg-boss, when Postgres is here.
const NOTIFYING = QUEUE_KINDS.filter((kind) => !kind.local);

describe.runIf(NOTIFYING.length > 0).each(NOTIFYING)('job notifications ($label)', (kind) => {
  let fx: QueueFixture;
  beforeAll(async () => {
    fx = await openQueueFixture(kind);
  });
  afterAll(() => fx.close());

  it('listens again after its connection is cut, so a worker still hears of jobs at once', async (test) => {
    const name = queueName();
    const worker = fx.queue(test, { pollIntervalMs: 60_000 });
    const sender = fx.queue(test, { otherProcess: true, pollIntervalMs: 60_000 });
    const { deliveries, handler } = recorder();
    await worker.work(name, handler, { concurrency: 1 });

    // What a PostgreSQL restart or a network cut does to the listening connection.
    const admin = new pg.Client({ connectionString: fx.testDb.url });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `select pg_terminate_backend(pid) as cut from pg_stat_activity
         where application_name = 'conveyor-listen' and datname = current_database()`,
      );
      expect(rows).toEqual([{ cut: true }]);
    } finally {
      await admin.end();
    }
    // The first reconnection is a second later.
    await sleep(1500);
    const sentAt = Date.now();
    await sender.send({ name, payload: {} });
    await waitUntil(() => deliveries.length === 1, 'the job is delivered', 5000);
    expect((deliveries[0]?.atMs ?? Number.POSITIVE_INFINITY) - sentAt).toBeLessThan(2000);
  }, 20_000);
});
