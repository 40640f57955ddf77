import { type BackoffPolicy, retryDelayMs } from './backoff.js';
import { runTasks } from './billing.js';
import type { ErrorDetails } from './execution.js';
import type { Step } from './flow.js';

/**
 * The life of a run as one pure function: given the flow's shape, what the run has recorded so far
 * and what just happened, `decide` says what to record and what to do next. The engine carries the
 * decisions out and persists them; it holds no rule of its own about which step runs next, when a
 * step is retried, or how a run ends.
 */

/**
 * A node of the shape a run walks. Only steps today. Paths, loops and sub-flows will be nodes that
 * hold nodes: `walk` descends into them, and a run's position stays a record per step, never an index.
 */
export interface StepNode {
  readonly kind: 'step';
  readonly stepId: string;
  /** The run goes on past this step's failure; later steps see no output of it. */
  readonly continueOnFailure: boolean;
}
export type PlanNode = StepNode;

export interface RunPlan {
  /** The trigger's step: the run's first record, which later steps read. */
  readonly triggerId: string | null;
  readonly nodes: readonly PlanNode[];
}

/** A flow's steps (by position) as the shape its runs walk. */
export const planOf = (steps: readonly Step[]): RunPlan => ({
  triggerId: steps.find((step) => step.type === 'trigger')?.id ?? null,
  nodes: steps
    .filter((step) => step.type === 'action')
    .map((step) => ({ kind: 'step', stepId: step.id, continueOnFailure: step.continueOnFailure })),
});

/** The step nodes in the order a run takes them. */
function* walk(nodes: readonly PlanNode[]): Generator<StepNode> {
  for (const node of nodes) {
    switch (node.kind) {
      case 'step':
        yield node;
        break;
    }
  }
}

export interface RecordedStep {
  readonly stepId: string;
  readonly status: 'success' | 'failure';
  readonly output: unknown;
  readonly error: ErrorDetails | null;
  /** An action the engine ran in this run: a task. Not the trigger's record, nor one a retry copied. */
  readonly task: boolean;
}

export type RunStatus = 'running' | 'waiting' | 'success' | 'failure';

export interface RunState {
  readonly status: RunStatus;
  readonly testRun: boolean;
  /** A test run stops after this step; null runs the whole flow. */
  readonly untilStepId: string | null;
  /** Attempts made so far at the step the run is at. */
  readonly attempts: number;
  /** Oldest first; at most one per step. */
  readonly records: readonly RecordedStep[];
}

export type RunEvent =
  /** A worker took the run up from its records: its first turn, a timer that fired, or a run that a crashed or lost worker left. */
  | { readonly kind: 'resumed' }
  /** The account of the flow's owner was removed. */
  | { readonly kind: 'ownerRemoved' }
  | {
      readonly kind: 'succeeded';
      readonly stepId: string;
      readonly output: unknown;
      /** End the run here, as a success (a filter that did not match). */
      readonly stop?: boolean;
      /** Go on with the next step at this time (a delay). */
      readonly pauseUntil?: Date;
    }
  | {
      readonly kind: 'failed';
      readonly stepId: string;
      readonly error: ErrorDetails;
      /** Worth another attempt later (network, time-out, 5xx, 429). */
      readonly retryable: boolean;
      readonly retryAfterMs?: number;
    };

export type RunMove =
  /** Run this step now; `outputs` are the results it may read, by step id. */
  | { readonly kind: 'run'; readonly stepId: string; readonly outputs: ReadonlyMap<string, unknown> }
  /** Pause until `until`; `attempts` are those made at the step the run resumes at. */
  | { readonly kind: 'wait'; readonly until: Date; readonly attempts: number; readonly retry: boolean }
  | {
      readonly kind: 'finish';
      readonly status: 'success' | 'failure';
      /** The step whose failure ended the run. */
      readonly failed: { readonly stepId: string; readonly error: string } | null;
      /** Tasks to bill for the run; null for a test run, which is never billed. */
      readonly tasks: number | null;
    }
  /** The event does not apply to the run as it stands; nothing changes. */
  | { readonly kind: 'refuse'; readonly reason: string };

export interface Transition {
  readonly state: RunState;
  /** The step's result, to record atomically with the move. */
  readonly record: RecordedStep | null;
  readonly move: RunMove;
}

export interface RunContext {
  readonly now: Date;
  readonly backoff: BackoffPolicy;
  /** In [0, 1): the jitter of retry delays. */
  readonly random: () => number;
}

/** The steps the run has yet to take, in order; a test run's end at its `untilStepId`. */
const ahead = (plan: RunPlan, state: RunState): StepNode[] => {
  const recorded = new Set(state.records.map((record) => record.stepId));
  const pending = [...walk(plan.nodes)].filter((node) => !recorded.has(node.stepId));
  if (state.untilStepId === null) return pending;
  const last = pending.findIndex((node) => node.stepId === state.untilStepId);
  return pending.slice(0, last + 1);
};

const outputsOf = (records: readonly RecordedStep[]): Map<string, unknown> =>
  new Map(records.filter((record) => record.status === 'success').map((record) => [record.stepId, record.output]));

/** Whether the run goes on past this step's failure. */
const goesOnPastFailure = (plan: RunPlan, stepId: string): boolean =>
  [...walk(plan.nodes)].some((node) => node.stepId === stepId && node.continueOnFailure);

/** The step whose failure ends the run, as its end names it. */
const failedBy = (record: RecordedStep) => ({
  stepId: record.stepId,
  error: record.error?.message ?? 'The step failed.',
});

const finish = (
  state: RunState,
  failed: { stepId: string; error: string } | null,
  status: 'success' | 'failure' = failed ? 'failure' : 'success',
): Transition => {
  return {
    state: { ...state, status, attempts: 0 },
    record: null,
    move: {
      kind: 'finish',
      status,
      failed,
      tasks: runTasks(state.testRun, state.records.filter((record) => record.task).length),
    },
  };
};

/** The run goes on from its records: the next step, or its end. */
const proceed = (plan: RunPlan, state: RunState): Transition => {
  const fatal = state.records.find((record) => record.status === 'failure' && !goesOnPastFailure(plan, record.stepId));
  if (fatal) return finish(state, failedBy(fatal));
  const [next] = ahead(plan, state);
  if (!next) return finish(state, null);
  return {
    state: { ...state, status: 'running' },
    record: null,
    move: { kind: 'run', stepId: next.stepId, outputs: outputsOf(state.records) },
  };
};

/** Records the step's result, then goes on, pauses or ends as the result and the step say. */
const recordAndGoOn = (
  plan: RunPlan,
  state: RunState,
  record: RecordedStep,
  then: { stop: boolean; pauseUntil: Date | null },
): Transition => {
  const recorded: RunState = { ...state, attempts: 0, records: [...state.records, record] };
  const last = ahead(plan, recorded).length === 0;
  const continues = record.status === 'success' || goesOnPastFailure(plan, record.stepId);
  if (!continues) return { ...finish(recorded, failedBy(record)), record };
  if (then.stop || last) return { ...finish(recorded, null), record };
  // A test run does not wait: the editor wants the whole answer now.
  if (then.pauseUntil && !state.testRun) {
    return {
      state: { ...recorded, status: 'waiting' },
      record,
      move: { kind: 'wait', until: then.pauseUntil, attempts: 0, retry: false },
    };
  }
  return { ...proceed(plan, recorded), record };
};

const refuse = (state: RunState, reason: string): Transition => ({
  state,
  record: null,
  move: { kind: 'refuse', reason },
});

/** What the run does next, given what just happened to it. Pure: the same arguments, the same answer. */
export const decide = (plan: RunPlan, state: RunState, event: RunEvent, context: RunContext): Transition => {
  if (state.status === 'success' || state.status === 'failure') return refuse(state, 'The run has finished.');
  // Pending, waiting and retrying runs of a removed user's flows end at their next turn, no step failing.
  if (event.kind === 'ownerRemoved') return finish(state, null, 'failure');
  if (event.kind === 'resumed') return proceed(plan, state);
  if (state.status !== 'running') return refuse(state, 'The run is waiting.');
  const [current] = ahead(plan, state);
  if (current?.stepId !== event.stepId) return refuse(state, 'The run is not at that step.');
  if (event.kind === 'succeeded') {
    const record = { stepId: event.stepId, status: 'success', output: event.output, error: null, task: true } as const;
    return recordAndGoOn(plan, state, record, { stop: event.stop === true, pauseUntil: event.pauseUntil ?? null });
  }
  const attempts = state.attempts + 1;
  const delay =
    event.retryable && !state.testRun
      ? retryDelayMs(context.backoff, attempts, context.random, event.retryAfterMs)
      : null;
  if (delay !== null) {
    return {
      state: { ...state, status: 'waiting', attempts },
      record: null,
      move: { kind: 'wait', until: new Date(context.now.getTime() + delay), attempts, retry: true },
    };
  }
  const record = { stepId: event.stepId, status: 'failure', output: null, error: event.error, task: true } as const;
  return recordAndGoOn(plan, state, record, { stop: false, pauseUntil: null });
};
