import type { Logger } from '../../ports/logger.js';
import type { Execution } from '../domain/execution.js';

/** A worker's turn at a run, as its log lines name it. */
export interface RunTurn {
  readonly execution: Execution;
  /** The worker (host, pid) that took the run up. */
  readonly workerId: string;
}

/**
 * One line per run that ends: a failure at error level (an editor's test run at info, since the
 * person testing sees it at once), a success at debug, each naming the worker that ran it.
 */
export const logRunEnd = (
  logger: Logger,
  { execution, workerId }: RunTurn,
  now: Date,
  failed: { readonly stepId: string; readonly error: string } | null,
): void => {
  const fields = {
    flowId: execution.flowId,
    executionId: execution.id,
    worker: workerId,
    ...(execution.testRun && { testRun: true }),
    durationMs: now.getTime() - execution.createdAt.getTime(),
  };
  if (failed === null) logger.debug(fields, 'execution succeeded');
  else if (execution.testRun) logger.info({ ...fields, stepId: failed.stepId, err: failed.error }, 'test run failed');
  else logger.error({ ...fields, stepId: failed.stepId, err: failed.error }, 'execution failed');
};

export const logRetry = (
  logger: Logger,
  { execution, workerId }: RunTurn,
  retry: { readonly stepId: string; readonly attempts: number; readonly delayMs: number; readonly error: string },
): void => {
  logger.warn(
    {
      flowId: execution.flowId,
      executionId: execution.id,
      stepId: retry.stepId,
      worker: workerId,
      attempts: retry.attempts,
      delayMs: retry.delayMs,
      err: retry.error,
    },
    'step failed; retrying later',
  );
};
