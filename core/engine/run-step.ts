import type { StepFailure, StepStore } from '../../ports/step-runner.js';
import type { ErrorDetails, Execution } from '../domain/execution.js';
import type { Step } from '../domain/flow.js';
import type { RunEvent } from '../domain/run-machine.js';
import { renderParameters, type StepOutputs } from '../domain/templating.js';
import type { EngineDeps } from './deps.js';
import { parsedArgumentKeys } from './parsed-arguments.js';
import { stepConnection } from './step-connection.js';

const failureDetails = (failure: StepFailure): ErrorDetails => ({
  message: failure.message,
  ...(failure.details ?? {}),
});

/** What running a step gave: the event for the run's state machine, and the input it ran with. */
export interface StepTurn {
  readonly event: Extract<RunEvent, { kind: 'succeeded' | 'failed' }>;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/**
 * Runs one step, as the state machine asked, with the outputs it may read; its outcome becomes
 * an event. A step that cannot run (no app chosen, its connection gone) fails, not to be retried.
 */
export const runStep = async (
  deps: EngineDeps,
  run: { readonly execution: Execution; readonly store: StepStore },
  step: Step,
  outputs: ReadonlyMap<string, unknown>,
): Promise<StepTurn> => {
  const parameters = renderParameters(step.parameters, outputs as StepOutputs, parsedArgumentKeys(deps.apps, step));
  const failed = (error: ErrorDetails, retryable = false, retryAfterMs?: number): StepTurn => ({
    event: { kind: 'failed', stepId: step.id, error, retryable, ...(retryAfterMs !== undefined && { retryAfterMs }) },
    parameters,
  });
  const { appKey, key } = step;
  if (appKey === null || key === null) return failed({ message: 'The step has no app or action chosen.' });
  const connection = await stepConnection(deps, step);
  if (!connection.ok) return failed({ message: connection.reason });

  const { execution } = run;
  const outcome = await deps.runner.runAction({
    appKey,
    key,
    parameters,
    connection: connection.value,
    store: run.store,
    execution: {
      id: execution.id,
      flowId: execution.flowId,
      stepId: step.id,
      testRun: execution.testRun,
      idempotencyKey: `${execution.id}:${step.id}`,
    },
  });
  if (outcome.kind === 'failure') {
    const { failure } = outcome;
    return failed(failureDetails(failure), failure.retryable, failure.retryAfterMs);
  }
  // The engine takes suspended steps up in the flow-control change that follows this one.
  if (outcome.kind === 'suspend') return failed({ message: 'The step asked to wait for a signal.' });
  const succeeded = { kind: 'succeeded', stepId: step.id, output: outcome.output } as const;
  if (outcome.kind === 'stop') return { event: { ...succeeded, stop: true }, parameters };
  if (outcome.kind === 'wait') return { event: { ...succeeded, pauseUntil: outcome.until }, parameters };
  return { event: succeeded, parameters };
};
