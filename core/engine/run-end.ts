import type { RunEnd } from '../../ports/run-observer.js';
import type { Execution } from '../domain/execution.js';
import type { EngineDeps } from './deps.js';

/** Tells the observer, if any, that a run ended; an observer's failure never reaches the run. */
export const announceRunEnd = (
  { runObserver, logger }: Pick<EngineDeps, 'runObserver' | 'logger'>,
  execution: Execution,
  end: Pick<RunEnd, 'status' | 'failed' | 'finishedAt'>,
): void => {
  if (!runObserver) return;
  try {
    runObserver.runEnded({ executionId: execution.id, flowId: execution.flowId, testRun: execution.testRun, ...end });
  } catch (error) {
    logger.error({ err: error, executionId: execution.id }, 'a run observer failed');
  }
};
