import type { StepFailure, StepStore } from '../../ports/step-runner.js';
import type { ErrorDetails, Execution } from '../domain/execution.js';
import type { Step } from '../domain/flow.js';
import { choosePaths, type Decided, loopItems } from '../domain/flow-control.js';
import type { RunEvent } from '../domain/run-machine.js';
import { stepKeyOf } from '../domain/run-plan.js';
import { EXECUTION_KEY, readsExecution, renderParameters, type StepOutputs } from '../domain/templating.js';
import type { EngineDeps } from './deps.js';
import { parsedArgumentKeys } from './parsed-arguments.js';
import { makeRunControl } from './run-control.js';
import { stepConnection } from './step-connection.js';

/** A failure as a record keeps it: its message and the details the app gave. */
export const failureDetails = (failure: StepFailure): ErrorDetails => ({
  message: failure.message,
  ...(failure.details ?? {}),
});

/** What running a step gave: the event for the run's state machine, and the input it ran with. */
export interface StepTurn {
  readonly event: Extract<RunEvent, { kind: 'succeeded' | 'failed' | 'suspended' }>;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface RunningRun {
  readonly execution: Execution;
  readonly store: StepStore;
  /** The run's resume URL, made once per turn however many steps ask for it. */
  readonly resumeUrl: () => Promise<string>;
  /** The steps the run walks, by id: a paths step reads its branches' conditions there. */
  readonly steps: ReadonlyMap<string, Step>;
}

/** A paths step's branches or a loop's items, decided by the engine itself (no app runs). */
const decideStructure = (
  deps: EngineDeps,
  run: RunningRun,
  step: Step,
  outputs: StepOutputs,
): { readonly decided: Decided; readonly parameters: Readonly<Record<string, unknown>> } => {
  if (step.structuralType === 'loop') {
    const decided = loopItems(step, outputs, deps.settings.engine.loopItemsMax);
    return { decided, parameters: renderParameters(step.parameters, outputs) };
  }
  const branches = [...run.steps.values()]
    .filter((s) => s.parentStepId === step.id && s.structuralType === 'branch')
    .sort((a, b) => a.position - b.position);
  const parameters = {
    ...step.parameters,
    branches: branches.map((b) => ({
      id: b.id,
      name: b.name,
      conditions: renderParameters({ c: b.branchConditions ?? [] }, outputs).c,
    })),
  };
  return { decided: choosePaths(step, branches, outputs), parameters };
};

/**
 * Runs one step where the state machine asked (`scope`: its loop iterations), with the outputs it
 * may read; its outcome becomes an event. Paths and loops are decided here, without an app. A
 * step that cannot run (no app chosen, its connection gone) fails, not to be retried.
 */
export const runStep = async (
  deps: EngineDeps,
  run: RunningRun,
  step: Step,
  at: { readonly scope: string; readonly outputs: StepOutputs },
): Promise<StepTurn> => {
  const { execution } = run;
  const { scope } = at;
  const where = scope === '' ? {} : { scope };
  if (step.structuralType === 'paths' || step.structuralType === 'loop') {
    const { decided, parameters } = decideStructure(deps, run, step, at.outputs);
    return decided.ok
      ? { event: { kind: 'succeeded', stepId: step.id, ...where, output: decided.output }, parameters }
      : { event: { kind: 'failed', stepId: step.id, ...where, error: decided.error, retryable: false }, parameters };
  }
  let outputs = at.outputs;
  if (readsExecution(step.parameters)) {
    outputs = new Map(outputs).set(EXECUTION_KEY, {
      id: execution.id,
      resumeUrl: await run.resumeUrl(),
    });
  }
  const parameters = renderParameters(step.parameters, outputs, parsedArgumentKeys(deps.apps, step));
  const failed = (error: ErrorDetails, retryable = false, retryAfterMs?: number): StepTurn => ({
    event: {
      kind: 'failed',
      stepId: step.id,
      ...where,
      error,
      retryable,
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    },
    parameters,
  });
  const { appKey, key } = step;
  if (appKey === null || key === null) return failed({ message: 'The step has no app or action chosen.' });
  const connection = await stepConnection(deps, step);
  if (!connection.ok) return failed({ message: connection.reason });

  const stepKey = stepKeyOf(step.id, scope);
  const stepExecution = {
    id: execution.id,
    flowId: execution.flowId,
    stepId: step.id,
    testRun: execution.testRun,
    // The same across attempts of this step where it runs, and as it always was at the top level.
    idempotencyKey: scope === '' ? `${execution.id}:${step.id}` : `${execution.id}:${stepKey}`,
  };
  const outcome = await deps.runner.runAction({
    appKey,
    key,
    parameters,
    connection: connection.value,
    store: run.store,
    execution: stepExecution,
    run: makeRunControl(deps, run, { stepKey, execution: stepExecution }),
  });
  if (outcome.kind === 'failure') {
    const { failure } = outcome;
    return failed(failureDetails(failure), failure.retryable, failure.retryAfterMs);
  }
  if (outcome.kind === 'suspend') {
    return { event: { kind: 'suspended', stepId: step.id, ...where, until: outcome.until }, parameters };
  }
  const succeeded = { kind: 'succeeded', stepId: step.id, ...where, output: outcome.output } as const;
  if (outcome.kind === 'stop') {
    const failure = outcome.failure === undefined ? {} : { failure: outcome.failure };
    return { event: { ...succeeded, stop: true, ...failure }, parameters };
  }
  if (outcome.kind === 'wait') return { event: { ...succeeded, pauseUntil: outcome.until }, parameters };
  return { event: succeeded, parameters };
};
