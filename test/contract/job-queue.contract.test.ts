import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../ports/job-queue.js';
import {
  gate,
  MAX_ATTEMPTS,
  openQueueFixture,
  QUEUE_KINDS,
  type QueueFixture,
  queueName,
  recorder,
  sleep,
  waitUntil,
} from './job-queue-fixture.js';

const EVERY_SECOND = '* * * * * *';

// The tests wait on timers far more than they compute, so those of one suite run side by side.
describe.concurrent.each(QUEUE_KINDS)('job queue contract ($label)', (kind) => {
  let fx: QueueFixture;
  beforeAll(async () => {
    fx = await openQueueFixture(kind);
  });
  afterAll(() => fx.close());

  const depthOf = async (queue: JobQueue, name: string) => (await queue.depth())[name] ?? 0;

  it('delivers a job with its payload once, then counts it done', async (test) => {
    const name = queueName();
    const queue = fx.queue(test);
    const { deliveries, handler } = recorder();
    await queue.work(name, handler, { concurrency: 1 });
    const payload = { executionId: 'e-1', step: 2, test: true, note: null };
    const id = await queue.send({ name, payload });
    expect(id).toEqual(expect.any(String));
    await waitUntil(() => deliveries.length === 1, 'the job is delivered');
    expect(deliveries[0]).toMatchObject({ id, name, payload, attempt: 1 });
    await waitUntil(async () => (await depthOf(queue, name)) === 0, 'the job is done');
    await sleep(150);
    expect(deliveries).toHaveLength(1);
  });

  it('delivers again after the handler throws, as a later attempt, after a backoff', async (test) => {
    const name = queueName();
    const queue = fx.queue(test);
    const { deliveries, handler } = recorder((job) => {
      if (job.attempt === 1) throw new Error('first try fails');
    });
    await queue.work(name, handler, { concurrency: 1 });
    await queue.send({ name, payload: { n: 1 } });
    await waitUntil(() => deliveries.length === 2, 'the job is delivered again');
    expect(deliveries.map((d) => d.attempt)).toEqual([1, 2]);
    const [first, second] = deliveries;
    expect((second?.atMs ?? 0) - (first?.atMs ?? 0)).toBeGreaterThanOrEqual(kind.firstRetryMinMs - 20);
    await waitUntil(async () => (await depthOf(queue, name)) === 0, 'the retried job is done');
  });

  it('stops delivering a job that failed every attempt, and no longer counts it', async (test) => {
    const name = queueName();
    const queue = fx.queue(test);
    const { deliveries, handler } = recorder(() => {
      throw new Error('always fails');
    });
    await queue.work(name, handler, { concurrency: 1 });
    await queue.send({ name, payload: {} });
    await waitUntil(() => deliveries.length === MAX_ATTEMPTS, 'every attempt is made');
    await waitUntil(async () => (await depthOf(queue, name)) === 0, 'the job is given up');
    await sleep(300);
    expect(deliveries.map((d) => d.attempt)).toEqual([1, 2]);
  });

  it('does not deliver a job before its startAfter', async (test) => {
    const name = queueName();
    const queue = fx.queue(test);
    const { deliveries, handler } = recorder();
    await queue.work(name, handler, { concurrency: 1 });
    // Far enough ahead that a loaded machine still counts the job before it becomes due.
    const startAfter = new Date(Date.now() + 2000);
    await queue.send({ name, payload: {}, startAfter });
    expect(await depthOf(queue, name)).toBe(1);
    expect(deliveries).toHaveLength(0);
    await waitUntil(() => deliveries.length === 1, 'the delayed job is delivered');
    expect(deliveries[0]?.atMs).toBeGreaterThanOrEqual(startAfter.getTime() - 10);
  });

  it('keeps one job awaiting delivery per singleton key and queue', async (test) => {
    const name = queueName();
    const queue = fx.queue(test);
    const first = await queue.send({ name, payload: { n: 1 }, singletonKey: 'poll:flow-1' });
    expect(first).toEqual(expect.any(String));
    expect(await queue.send({ name, payload: { n: 2 }, singletonKey: 'poll:flow-1' })).toBeNull();
    expect(await queue.send({ name, payload: { n: 3 }, singletonKey: 'poll:flow-2' })).toEqual(expect.any(String));
    expect(await queue.send({ name: queueName(), payload: {}, singletonKey: 'poll:flow-1' })).toEqual(
      expect.any(String),
    );
    const keyless = [await queue.send({ name, payload: {} }), await queue.send({ name, payload: {} })];
    expect(keyless).toEqual([expect.any(String), expect.any(String)]);
    expect(await depthOf(queue, name)).toBe(4);

    const { deliveries, handler } = recorder();
    await queue.work(name, handler, { concurrency: 4 });
    await waitUntil(() => deliveries.length === 4, 'the pending jobs are delivered');
    expect(deliveries.find((d) => d.id === first)?.payload).toEqual({ n: 1 });
    // Once delivered, the key is free again.
    expect(await queue.send({ name, payload: { n: 4 }, singletonKey: 'poll:flow-1' })).toEqual(expect.any(String));
    await waitUntil(() => deliveries.length === 5, 'the new singleton job is delivered');
  });

  it('takes concurrent sends, singleton duplicates among them, each answered on its own', async (test) => {
    const name = queueName();
    const queue = fx.queue(test);
    const sends = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => queue.send({ name, payload: { i } })),
      queue.send({ name, payload: { key: 1 }, singletonKey: 'same' }),
      queue.send({ name, payload: { key: 2 }, singletonKey: 'same' }),
    ]);
    expect(new Set(sends.slice(0, 20)).size).toBe(20);
    expect(sends.slice(20).filter((id) => id === null)).toHaveLength(1);
    const { deliveries, handler } = recorder();
    await queue.work(name, handler, { concurrency: 8 });
    await waitUntil(() => deliveries.length === 21, 'every job is delivered');
    expect(new Set(deliveries.map((d) => d.id))).toEqual(new Set(sends.filter((id) => id !== null)));
  });

  it('fires a schedule once per tick across processes, with the latest definition, until unscheduled', async (test) => {
    const name = queueName();
    const key = `schedule:${name}`;
    const one = fx.queue(test);
    const other = fx.queue(test, { otherProcess: true });
    const sinceMs = Date.now();
    await one.schedule(key, EVERY_SECOND, 'Europe/Paris', { name, payload: { version: 1 } });
    await one.schedule(key, EVERY_SECOND, 'Europe/Paris', { name, payload: { version: 2 } });
    const { deliveries, handler } = recorder();
    await one.work(name, handler, { concurrency: 2 });
    await other.work(name, handler, { concurrency: 2 });
    await waitUntil(() => deliveries.length >= 2, 'the schedule fires twice', 5000);
    // A tick fires at a second's boundary: with each fired once, there are no more deliveries
    // than boundaries passed (slow deliveries only make fewer). Two firing processes make twice as many.
    const boundaries = Math.floor(Date.now() / 1000) - Math.floor(sinceMs / 1000);
    expect(deliveries.length).toBeLessThanOrEqual(boundaries);
    expect(deliveries.every((d) => d.name === name && d.payload.version === 2)).toBe(true);

    await other.unschedule(key);
    await sleep(200);
    const fired = deliveries.length;
    await sleep(1200);
    expect(deliveries).toHaveLength(fired);
  });

  it('rejects a malformed cron expression or an unknown time zone', async (test) => {
    const queue = fx.queue(test);
    await expect(queue.schedule('bad', '61 * * * *', 'UTC', { name: queueName(), payload: {} })).rejects.toThrow();
    await expect(
      queue.schedule('bad', '* * * * *', 'Mars/Olympus', { name: queueName(), payload: {} }),
    ).rejects.toThrow();
  });

  it('hands a job whose lease ran out without renewal to another worker', async (test) => {
    const name = queueName();
    const stuck = gate();
    const dead = recorder(() => stuck.opened);
    // The first worker holds the job past its lease and never renews it, as a dead one would.
    const deadWorker = fx.queue(test, kind.expiringLease);
    await deadWorker.work(name, dead.handler, { concurrency: 1 });
    await deadWorker.send({ name, payload: { n: 1 } });
    await waitUntil(() => dead.deliveries.length === 1, 'the first worker takes the job');

    const alive = recorder();
    await fx.queue(test, { otherProcess: true }).work(name, alive.handler, { concurrency: 1 });
    await waitUntil(() => alive.deliveries.length === 1, 'another worker gets the job', 8000);
    expect(alive.deliveries[0]).toMatchObject({ id: dead.deliveries[0]?.id, payload: { n: 1 }, attempt: 2 });
    stuck.open();
  });

  it('runs no more handlers at a time than the concurrency', async (test) => {
    const name = queueName();
    const queue = fx.queue(test);
    let running = 0;
    let peak = 0;
    // The first handlers hold on until three run at once (or a while passes), so that a loaded
    // machine's slow sends cannot keep the peak under the concurrency; a fourth would show.
    let allBusy = () => {};
    const threeRunning = new Promise<void>((resolve) => {
      allBusy = resolve;
    });
    const { deliveries, handler } = recorder(async () => {
      running += 1;
      peak = Math.max(peak, running);
      if (running === 3) allBusy();
      await Promise.race([threeRunning, sleep(5_000)]);
      await sleep(60);
      running -= 1;
    });
    await queue.work(name, handler, { concurrency: 3 });
    // Sent while every slot is busy, too: the wake-ups must wait for a free slot, not spin.
    for (let i = 0; i < 9; i++) await queue.send({ name, payload: { i } });
    await waitUntil(() => deliveries.length === 9 && running === 0, 'every job is handled');
    expect(peak).toBe(3);
    expect(new Set(deliveries.map((d) => d.payload.i)).size).toBe(9);
  });

  it('stop() waits for running handlers and records their completion', async (test) => {
    const name = queueName();
    const queue = fx.queue(test);
    let finished = false;
    const { deliveries, handler } = recorder(async () => {
      await sleep(300);
      finished = true;
    });
    await queue.work(name, handler, { concurrency: 1 });
    await queue.send({ name, payload: {} });
    await waitUntil(() => deliveries.length === 1, 'the handler starts');
    await queue.stop();
    expect(finished).toBe(true);
    expect(await depthOf(fx.queue(test), name)).toBe(0);
  });

  it('stop() gives back, after its time limit, the jobs whose handlers still run', async (test) => {
    const name = queueName();
    const stuck = gate();
    test.onTestFinished(stuck.open);
    const hung = recorder(() => stuck.opened);
    const stopping = fx.queue(test, { stopTimeoutMs: 100 });
    await stopping.work(name, hung.handler, { concurrency: 1 });
    await stopping.send({ name, payload: { n: 1 } });
    await waitUntil(() => hung.deliveries.length === 1, 'the handler starts');
    await stopping.stop();
    const next = recorder();
    await fx.queue(test, { otherProcess: true }).work(name, next.handler, { concurrency: 1 });
    await waitUntil(() => next.deliveries.length === 1, 'another worker gets the released job');
    expect(next.deliveries[0]).toMatchObject({ id: hung.deliveries[0]?.id, attempt: 2 });
  });

  it.runIf(!kind.local)(
    'has a job sent by another process worked at once, not at the next poll',
    async (test) => {
      const name = queueName();
      const worker = fx.queue(test, { pollIntervalMs: 60_000 });
      const sender = fx.queue(test, { otherProcess: true, pollIntervalMs: 60_000 });
      const { deliveries, handler } = recorder();
      // Resolves once the worker listens: its first claim found nothing, its next poll is a minute away.
      await worker.work(name, handler, { concurrency: 2 });
      await sleep(100);
      for (let i = 0; i < 3; i++) {
        const sentAt = Date.now();
        await sender.send({ name, payload: { i } });
        // Well under the minute to the next poll, with room for a loaded machine's stalls.
        await waitUntil(() => deliveries.length === i + 1, 'the job is delivered', 15_000);
        expect((deliveries[i]?.atMs ?? Number.POSITIVE_INFINITY) - sentAt).toBeLessThan(10_000);
        // Idle again: the next job too comes by notification.
        await sleep(200);
      }
    },
    20_000,
  );

  it('prepares a queue before its first job: pg-boss started and the queue made, then jobs go through', async (test) => {
    const name = queueName();
    const queue = fx.queue(test);
    await queue.prepare([name]);
    if (!kind.local) {
      const made = await sql<{
        name: string;
      }>`select name from ${sql.id(fx.bossSchema, 'queue')} where name = ${name}`.execute(fx.db.db);
      expect(made.rows).toEqual([{ name }]);
    }
    const { deliveries, handler } = recorder();
    await queue.work(name, handler, { concurrency: 1 });
    await queue.send({ name, payload: { n: 1 } });
    await waitUntil(() => deliveries.length === 1, 'the job is delivered');
  });

  it('counts the jobs not yet done per queue', async (test) => {
    const [a, b] = [queueName(), queueName()];
    const queue = fx.queue(test);
    const later = new Date(Date.now() + 3_600_000);
    await queue.send({ name: a, payload: {}, startAfter: later });
    await queue.send({ name: a, payload: {}, startAfter: later });
    await queue.send({ name: b, payload: {}, startAfter: later });
    expect(await queue.depth()).toMatchObject({ [a]: 2, [b]: 1 });
  });
});
