import type { EngineDeps } from './deps.js';
import { EXECUTION_JOB } from './jobs.js';

/**
 * Something a run waits for happened (a signal reached it, a run it called ended): a waiting run
 * becomes due and goes to the queue; a run still on its way to sleep sees its wakes grew and goes
 * on at once (ExecutionRepository.suspend).
 */
export const wakeRun = async ({ repos, queue, clock }: Pick<EngineDeps, 'repos' | 'queue' | 'clock'>, id: string) => {
  if (await repos.executions.wake(id, clock.now())) {
    await queue.send({ name: EXECUTION_JOB, payload: { executionId: id }, singletonKey: `wake:${id}` });
  }
};
