import type { AfterStep } from '../../ports/execution-repositories.js';
import type { StepFailure } from '../../ports/step-runner.js';
import { UnstorableTextError } from '../../ports/unstorable-text.js';
import type { ErrorDetails, Execution } from '../domain/execution.js';
import type { Step } from '../domain/flow.js';
import { ok } from '../domain/result.js';
import { renderParameters, type StepOutputs } from '../domain/templating.js';
import { retryDelayMs } from '../domain/backoff.js';
import type { EngineDeps } from './deps.js';
import { flowStore } from './flow-store.js';
import { EXECUTION_JOB } from './jobs.js';
import { parsedArgumentKeys } from './parsed-arguments.js';
import { stepConnection } from './step-connection.js';

/** What became of a run after one turn of a worker. */
export type RunOutcome = 'finished' | 'waiting' | 'skipped';

const failureDetails = (failure: StepFailure): ErrorDetails => ({
  message: failure.message,
  ...(failure.details ?? {}),
});

/**
 * A step's result that the database cannot hold (Postgres takes no NUL character and no lone
 * surrogate) would fail its record on every attempt, so the step fails instead, saying why.
 * Anything else thrown by a record is thrown on.
 */
const unstorableResult = (error: unknown): ErrorDetails => {
  if (!(error instanceof UnstorableTextError)) throw error;
  return {
    message:
      error.reason === 'nul'
        ? 'The step’s result holds a NUL character (U+0000), which the database cannot store: encode binary data (base64) or remove it.'
        : 'The step’s result holds a lone UTF-16 surrogate, which the database cannot store.',
  };
};

/**
 * Runs an execution from where it stands to its end, or to a pause (delay, retry after backoff).
 * Every step's result is committed before the next step starts, so a run taken over after a crash
 * goes on from its last committed step and no finished step runs twice. A second record of the
 * same step (a worker that lost its lease) is refused by the database and ends this turn.
 */
export const makeRunExecution = (deps: EngineDeps) => {
  const { repos, uow, clock, ids, runner, queue, logger } = deps;

  const resumeLater = async (execution: Execution, at: Date, attempts: number) => {
    await uow.run(async (tx) => {
      await tx.executions.wait(execution.id, at, attempts, clock.now());
      return ok(undefined);
    });
    await queue.send({ name: EXECUTION_JOB, payload: { executionId: execution.id }, startAfter: at });
    return 'waiting' as const;
  };

  /** Records a step's result; with `finish`, ends the run in the same transaction. */
  const record = async (
    execution: Execution,
    step: Step,
    result: { status: 'success' | 'failure'; dataIn: unknown; dataOut: unknown; errorDetails: ErrorDetails | null },
    then: { finish?: 'success' | 'failure'; resumeAt?: Date },
  ): Promise<boolean> => {
    const next: AfterStep = then.finish
      ? { kind: 'finish', status: then.finish }
      : then.resumeAt
        ? { kind: 'wait', resumeAt: then.resumeAt }
        : { kind: 'continue', resetAttempts: execution.stepAttempts > 0 };
    const saved = await repos.executions.recordStep(
      {
        id: ids.ordered(),
        executionId: execution.id,
        stepId: step.id,
        position: step.position,
        ...result,
        now: clock.now(),
      },
      next,
    );
    if (!saved)
      logger.warn({ executionId: execution.id, stepId: step.id }, 'step already recorded; another worker has the run');
    return saved;
  };

  const finish = async (execution: Execution, status: 'success' | 'failure') => {
    await uow.run(async (tx) => {
      await tx.executions.finish(execution.id, status, clock.now());
      return ok(undefined);
    });
    return 'finished' as const;
  };

  /**
   * One line per run that ends: a failure at error level (an editor's test run at info, since the
   * person testing sees it at once), a success at debug, each naming the worker (host, pid) that ran it.
   */
  const logEnd = (execution: Execution, workerId: string, end: { stepId: string; error: string } | null) => {
    const fields = {
      flowId: execution.flowId,
      executionId: execution.id,
      worker: workerId,
      ...(execution.testRun && { testRun: true }),
      durationMs: clock.now().getTime() - execution.createdAt.getTime(),
    };
    if (end === null) logger.debug(fields, 'execution succeeded');
    else if (execution.testRun) logger.info({ ...fields, stepId: end.stepId, err: end.error }, 'test run failed');
    else logger.error({ ...fields, stepId: end.stepId, err: end.error }, 'execution failed');
  };

  /** Ends the run, with the step that failed it (null: a success), and logs its end. */
  const end = async (execution: Execution, workerId: string, failed: { stepId: string; error: string } | null) => {
    await finish(execution, failed ? 'failure' : 'success');
    logEnd(execution, workerId, failed);
    return 'finished' as const;
  };

  return async (executionId: string, workerId: string): Promise<RunOutcome> => {
    const claimedAt = clock.now();
    const claimed = await repos.executions.claim(
      executionId,
      { owner: workerId, until: new Date(claimedAt.getTime() + deps.settings.engine.leaseMs) },
      claimedAt,
    );
    if (!claimed) return 'skipped';
    if (claimed.ownerRemoved) {
      // Pending, waiting and retrying runs of a removed user's flows end here, at their next turn.
      logger.info({ executionId, flowId: claimed.execution.flowId }, 'run ended: the flow’s owner was removed');
      return finish(claimed.execution, 'failure');
    }
    const { steps, recorded } = claimed;
    let execution = claimed.execution;
    const outputs = new Map<string, unknown>();
    const continuesPastFailure = new Set(steps.filter((s) => s.continueOnFailure).map((s) => s.id));
    for (const done of recorded) {
      if (done.status === 'failure' && !continuesPastFailure.has(done.stepId)) {
        return end(execution, workerId, {
          stepId: done.stepId,
          error: done.errorDetails?.message ?? 'The step failed.',
        });
      }
      if (done.status === 'success') outputs.set(done.stepId, done.dataOut);
    }
    const recordedIds = new Set(recorded.map((r) => r.stepId));
    const store = flowStore(repos, execution.flowId, clock);
    const pending = steps.filter((s) => s.type === 'action' && !recordedIds.has(s.id));
    const lastIndex = execution.untilStepId
      ? pending.findIndex((s) => s.id === execution?.untilStepId)
      : pending.length - 1;
    if (execution.untilStepId && lastIndex < 0) return end(execution, workerId, null);

    for (const [index, step] of pending.slice(0, lastIndex + 1).entries()) {
      const isLast = index === lastIndex;
      const parameters = renderParameters(step.parameters, outputs as StepOutputs, parsedArgumentKeys(deps.apps, step));
      /**
       * Records the step's failure: the run ends as a failure, unless the step lets it go on
       * (`continueOnFailure`), when later steps see no output of it.
       */
      const fail = async (errorDetails: ErrorDetails): Promise<'finished' | 'skipped' | null> => {
        const goOn = step.continueOnFailure;
        const then = goOn ? (isLast ? { finish: 'success' as const } : {}) : { finish: 'failure' as const };
        let failure = { status: 'failure' as const, dataIn: parameters as unknown, dataOut: null, errorDetails };
        let saved = await record(execution as Execution, step, failure, then).catch(unstorableResult);
        if (typeof saved !== 'boolean') {
          // The failure's own details (or input) were what the database could not hold.
          failure = { ...failure, dataIn: null, errorDetails: saved };
          saved = await record(execution as Execution, step, failure, then);
        }
        if (!saved) return 'skipped';
        if (!goOn) logEnd(execution as Execution, workerId, { stepId: step.id, error: failure.errorDetails.message });
        else if (isLast) logEnd(execution as Execution, workerId, null);
        return goOn && !isLast ? null : 'finished';
      };

      const { appKey, key } = step;
      const connection =
        appKey === null || key === null
          ? ({ ok: false, reason: 'The step has no app or action chosen.' } as const)
          : await stepConnection(deps, step);
      if (!connection.ok || appKey === null || key === null) {
        const ended = await fail({ message: connection.ok ? 'The step cannot run.' : connection.reason });
        if (ended) return ended;
        continue;
      }

      const outcome = await runner.runAction({
        appKey,
        key,
        parameters,
        connection: connection.value,
        store,
        execution: {
          id: execution.id,
          flowId: execution.flowId,
          stepId: step.id,
          testRun: execution.testRun,
          idempotencyKey: `${execution.id}:${step.id}`,
        },
      });

      if (outcome.kind === 'failure') {
        const attempts = execution.stepAttempts + 1;
        const delay =
          outcome.failure.retryable && !execution.testRun
            ? retryDelayMs(deps.settings.engine.backoff, attempts, deps.random, outcome.failure.retryAfterMs)
            : null;
        if (delay !== null) {
          logger.warn(
            {
              flowId: execution.flowId,
              executionId,
              stepId: step.id,
              worker: workerId,
              attempts,
              delayMs: delay,
              err: outcome.failure.message,
            },
            'step failed; retrying later',
          );
          return resumeLater(execution, new Date(clock.now().getTime() + delay), attempts);
        }
        const ended = await fail(failureDetails(outcome.failure));
        if (ended) return ended;
        execution = { ...execution, stepAttempts: 0 };
        continue;
      }

      // A test run does not wait: the editor wants the whole answer now.
      const waits = outcome.kind === 'wait' && !execution.testRun && !isLast;
      const ends = outcome.kind === 'stop' || isLast;
      const saved = await record(
        execution,
        step,
        { status: 'success', dataIn: parameters, dataOut: outcome.output, errorDetails: null },
        ends ? { finish: 'success' } : waits && outcome.kind === 'wait' ? { resumeAt: outcome.until } : {},
      ).catch(unstorableResult);
      if (typeof saved !== 'boolean') {
        const ended = await fail(saved);
        if (ended) return ended;
        execution = { ...execution, stepAttempts: 0 };
        continue;
      }
      if (!saved) return 'skipped';
      if (ends) {
        logEnd(execution, workerId, null);
        return 'finished';
      }
      if (waits && outcome.kind === 'wait') {
        await queue.send({ name: EXECUTION_JOB, payload: { executionId }, startAfter: outcome.until });
        return 'waiting';
      }
      outputs.set(step.id, outcome.output);
      execution = { ...execution, stepAttempts: 0 };
    }
    return end(execution, workerId, null);
  };
};

export type RunExecution = ReturnType<typeof makeRunExecution>;
