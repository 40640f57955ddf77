import { describe, expect, it } from 'vitest';
import type { Job } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import { type JobStore, Worker } from './worker.js';

const noop = () => {};
const silent: Logger = { debug: noop, info: noop, warn: noop, error: noop };
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A store with `waiting` jobs that records how many each claim asked for and got. */
const storeWith = (initial: number) => {
  let waiting = initial;
  let next = 0;
  const claims: Array<{ asked: number; got: number }> = [];
  const store: JobStore = {
    async claim(name, limit) {
      const got = Math.min(limit, waiting - next);
      claims.push({ asked: limit, got });
      return Array.from({ length: got }, () => ({ id: `job-${next++}`, name, payload: {}, attempt: 1 }));
    },
    async complete() {},
    async fail() {
      return { retryAtMs: null };
    },
    async release() {},
  };
  /** Jobs sent by another process: this worker is not woken for them. */
  const arrive = (jobs: number) => {
    waiting += jobs;
  };
  return { store, claims, arrive };
};

/** A minute between polls: every claim in these tests comes from a wake-up, a nudge or a re-look. */
const settingsFor = (concurrency: number) => ({
  concurrency,
  maxAttempts: 3,
  pollIntervalMs: 60_000,
  heartbeatIntervalMs: 60_000,
  stopTimeoutMs: 10,
});

describe('Worker', () => {
  it('claims for a quarter of its slots at once while nearly all are busy, not for each slot as it frees', async () => {
    const { store, claims } = storeWith(100);
    const finish = new Map<string, () => void>();
    const handler = (job: Job) => new Promise<void>((resolve) => finish.set(job.id, resolve));
    const settings = settingsFor(8);
    const worker = new Worker('q', handler, store, settings, silent);
    worker.start();
    await settle();
    expect(claims).toEqual([{ asked: 8, got: 8 }]);

    finish.get('job-0')?.();
    await settle();
    // One free slot of eight: the claim waits for a second.
    expect(claims).toHaveLength(1);

    finish.get('job-1')?.();
    await settle();
    expect(claims).toEqual([
      { asked: 8, got: 8 },
      { asked: 2, got: 2 },
    ]);
    for (const done of finish.values()) done();
    await worker.stop();
  });

  it('claims a single free slot when it has one slot, or nothing else runs', async () => {
    const { store, claims } = storeWith(3);
    const settings = settingsFor(1);
    const worker = new Worker('q', async () => {}, store, settings, silent);
    worker.start();
    await settle();
    expect(claims.filter((c) => c.got > 0)).toEqual([
      { asked: 1, got: 1 },
      { asked: 1, got: 1 },
      { asked: 1, got: 1 },
    ]);
    await worker.stop();
  });

  it('looks again soon after a claim that found jobs, and waits the poll interval after one that found none', async () => {
    const { store, claims, arrive } = storeWith(2);
    const settings = settingsFor(8);
    const worker = new Worker('q', async () => {}, store, settings, silent);
    worker.start();
    await settle();
    expect(claims[0]).toEqual({ asked: 8, got: 2 });

    // Jobs from elsewhere keep coming: each is taken within a short pause, not a minute later.
    arrive(3);
    await expect.poll(() => claims.reduce((sum, c) => sum + c.got, 0), { timeout: 1000, interval: 10 }).toBe(5);
    // The next look finds nothing; after that the worker waits its poll interval.
    await expect.poll(() => claims.at(-1)?.got, { timeout: 1000, interval: 10 }).toBe(0);
    const looks = claims.length;
    arrive(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(claims).toHaveLength(looks);
    await worker.stop();
  });
});
