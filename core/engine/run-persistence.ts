import type { AfterStep } from '../../ports/execution-repositories.js';
import { UnstorableTextError } from '../../ports/unstorable-text.js';
import type { ErrorDetails, Execution } from '../domain/execution.js';
import type { Step } from '../domain/flow.js';
import { ok } from '../domain/result.js';
import type { RunMove, RunState, Transition } from '../domain/run-machine.js';
import { placeOf, type RunPlan } from '../domain/run-plan.js';
import type { EngineDeps } from './deps.js';

/**
 * A step's result that the database cannot hold (Postgres takes no NUL character and no lone
 * surrogate) would fail its record on every attempt: the step fails instead, saying why.
 * Anything else thrown by a record is thrown on.
 */
export const unstorableResult = (error: unknown): ErrorDetails => {
  if (!(error instanceof UnstorableTextError)) throw error;
  return {
    message:
      error.reason === 'nul'
        ? 'The step’s result holds a NUL character (U+0000), which the database cannot store: encode binary data (base64) or remove it.'
        : 'The step’s result holds a lone UTF-16 surrogate, which the database cannot store.',
  };
};

const afterStep = (move: RunMove, before: RunState): AfterStep => {
  if (move.kind === 'finish') return { kind: 'finish', status: move.status, tasks: move.tasks };
  if (move.kind === 'wait') return { kind: 'wait', resumeAt: move.until };
  return { kind: 'continue', resetAttempts: before.attempts > 0 };
};

/**
 * Persists what the run's state machine decided: the step's record with the move in one atomic
 * write, or the move alone. False when the step was recorded already, by a worker that had the run
 * before this one: then nothing changed and this turn ends.
 */
export const makePersistTransition = ({ repos, uow, clock, ids, logger }: EngineDeps) => {
  return async (
    run: { readonly execution: Execution; readonly steps: ReadonlyMap<string, Step>; readonly plan: RunPlan },
    before: RunState,
    { record, move }: Transition,
    dataIn: unknown,
  ): Promise<boolean> => {
    const { execution, steps, plan } = run;
    const now = clock.now();
    if (record) {
      const saved = await repos.executions.recordStep(
        {
          id: ids.ordered(),
          executionId: execution.id,
          stepId: record.stepId,
          ...placeOf(plan, record.stepId, record.scope),
          task: record.task,
          position: steps.get(record.stepId)?.position ?? 0,
          status: record.status,
          dataIn,
          dataOut: record.output,
          errorDetails: record.error,
          now,
        },
        afterStep(move, before),
      );
      if (!saved)
        logger.warn(
          { executionId: execution.id, stepId: record.stepId },
          'step already recorded; another worker has the run',
        );
      return saved;
    }
    if (move.kind !== 'finish' && move.kind !== 'wait') return true;
    await uow.run(async (tx) => {
      if (move.kind === 'finish') await tx.executions.finish(execution.id, move.status, now, move.tasks);
      else await tx.executions.wait(execution.id, move.until, move.attempts, now);
      return ok(undefined);
    });
    return true;
  };
};
