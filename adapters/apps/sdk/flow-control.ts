import type { RunAccess } from './context.js';

/**
 * How an action tells the engine to end the run early, as a success, without running the steps
 * after it (the filter app when no condition group matches).
 *
 * The mark is a module-private symbol, so that no data an action merely passes on (an HTTP
 * answer, the output of user code, a parsed feed) can forge it: JSON has no symbols.
 */
const STOP_FLOW: unique symbol = Symbol('conveyor.stopFlow');

export interface FlowStop {
  readonly [STOP_FLOW]: true;
  /** What the step records as its output. */
  readonly output: unknown;
  /** End the run as a failure for this reason instead of a success. */
  readonly failure: string | null;
}

/**
 * Returned by `run`: record `output` as the step's output, then finish the execution here, as a
 * success, or as a failure when `failure` says why.
 */
export const stopFlow = (output: unknown, failure: string | null = null): FlowStop => ({
  [STOP_FLOW]: true,
  output,
  failure,
});

/** For the engine: whether a step's result asks it to stop the run. */
export const isFlowStop = (value: unknown): value is FlowStop =>
  typeof value === 'object' && value !== null && (value as Partial<FlowStop>)[STOP_FLOW] === true;

const WAIT: unique symbol = Symbol('conveyor.waitUntil');

export interface FlowWait {
  readonly [WAIT]: true;
  readonly until: Date;
  readonly output: unknown;
}

/**
 * Returned by `run`: record `output`, then go on with the next step at `until` (the delay app).
 * The run waits durably: a restart in between does not lose or shorten it.
 */
export const waitUntil = (until: Date, output: unknown): FlowWait => ({ [WAIT]: true, until, output });

export const isFlowWait = (value: unknown): value is FlowWait =>
  typeof value === 'object' && value !== null && (value as Partial<FlowWait>)[WAIT] === true;

const SUSPEND: unique symbol = Symbol('conveyor.suspend');

export interface FlowSuspend {
  readonly [SUSPEND]: true;
  readonly until: Date;
}

/**
 * Returned by `run`: record nothing yet; the run pauses, holding no worker, and this step runs
 * again at `until`, or as soon as a signal reaches the run (its resume URL, an approval, a form)
 * or a run it called ends. The step then looks again (`ctx.run`) and returns its output, fails,
 * or suspends once more.
 */
export const suspendUntil = (until: Date): FlowSuspend => ({ [SUSPEND]: true, until });

export const isFlowSuspend = (value: unknown): value is FlowSuspend =>
  typeof value === 'object' && value !== null && (value as Partial<FlowSuspend>)[SUSPEND] === true;

/**
 * The run a step is in, for steps that only mean something inside one (calling a flow, waiting for
 * a request): outside a run (`ctx.run` null) the step fails, saying why.
 */
export const runOf = (ctx: { readonly run: RunAccess | null }): RunAccess => {
  if (!ctx.run) throw new Error('This step works only while its flow runs.');
  return ctx.run;
};
