import { describe, expect, it } from 'vitest';
import type { UseCases } from '../core/application/use-cases.js';
import { EXECUTION_JOB } from '../core/engine/jobs.js';
import type { JobHandler, JobQueue } from '../ports/job-queue.js';
import type { Logger } from '../ports/logger.js';
import { startEngineWorker } from './engine-worker.js';

const LEASE_MS = 300;
const quiet: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => quiet,
} as unknown as Logger;

describe('the engine worker', () => {
  it('renews its own leases before its reaper looks, so a stall never hands its live runs to a second turn', async () => {
    // A lease store as the database keeps it: a renewal lands a moment after it is asked for.
    const leases = new Map<string, number>();
    const reapedOwnRun: string[] = [];
    const handlers = new Map<string, JobHandler>();
    let release = () => {};
    const useCases = {
      engine: {
        reconcileTriggers: async () => {},
        renewLeases: async (_owner: string, ids: readonly string[]) => {
          await new Promise((r) => setTimeout(r, 20));
          for (const id of ids) leases.set(id, Date.now() + LEASE_MS);
        },
        reapStranded: async () => {
          for (const [id, until] of leases) if (until < Date.now()) reapedOwnRun.push(id);
          return 0;
        },
        pruneExecutions: async () => 0,
        pruneListenerMessages: async () => 0,
        pruneSignInRecords: async () => 0,
        pruneFlowVersions: async () => 0,
      },
      runExecution: async (id: string) => {
        leases.set(id, Date.now() + LEASE_MS);
        // The process stalls past its lease (a loaded machine), then its run goes on a while.
        const stalled = Date.now() + LEASE_MS * 2;
        while (Date.now() < stalled) {}
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      fireTrigger: async () => {},
      listeners: () => ({ tick: async () => {}, stop: async () => {} }),
    } as unknown as UseCases;
    const queue = {
      work: async (name: string, handler: JobHandler) => {
        handlers.set(name, handler);
      },
      stop: async () => {},
    } as unknown as JobQueue;

    const worker = await startEngineWorker(
      useCases,
      queue,
      { workerConcurrency: 1, executionLeaseMs: LEASE_MS, executionRetentionMs: 60_000, flowVersionsKeep: null },
      quiet,
    );
    const running = handlers.get(EXECUTION_JOB)?.({
      id: 'j1',
      name: EXECUTION_JOB,
      payload: { executionId: 'e1' },
      attempt: 1,
    });
    await new Promise((r) => setTimeout(r, LEASE_MS * 3));
    release();
    await running;
    await worker.stop();

    expect(reapedOwnRun).toEqual([]);
  });
});
