import { type BackoffPolicy, retryDelayMs } from './backoff.js';
import { runTasks } from './billing.js';
import type { ErrorDetails } from './execution.js';
import {
  encloses,
  type Iteration,
  iterationsOf,
  type LoopNode,
  type PathsNode,
  type PlanNode,
  type RunPlan,
  scopeKey,
  stepKeyOf,
} from './run-plan.js';

export type { RunPlan } from './run-plan.js';

/**
 * The life of a run as one pure function: given the flow's shape, what the run has recorded so far
 * and what just happened, `decide` says what to record and what to do next. The engine carries the
 * decisions out and persists them; it holds no rule of its own about which step runs next, when a
 * step is retried, or how a run ends.
 */

export interface RecordedStep {
  readonly stepId: string;
  /** The loop iterations it ran in (run-plan.ts `scopeKey`); empty at the top level. */
  readonly scope: string;
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
  /** Oldest first; at most one per step and scope. */
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
      /** Where the step ran (its loop iterations); the top level when left out. */
      readonly scope?: string;
      readonly output: unknown;
      /** End the run here, as a success (a filter that did not match). */
      readonly stop?: boolean;
      /** With `stop`: end it as a failure, for this reason, instead. */
      readonly failure?: string;
      /** Go on with the next step at this time (a delay). */
      readonly pauseUntil?: Date;
    }
  | {
      readonly kind: 'failed';
      readonly stepId: string;
      readonly scope?: string;
      readonly error: ErrorDetails;
      /** Worth another attempt later (network, time-out, 5xx, 429). */
      readonly retryable: boolean;
      readonly retryAfterMs?: number;
    }
  /** The step waits for something outside the run: it runs again at `until`, or when woken. */
  | { readonly kind: 'suspended'; readonly stepId: string; readonly scope?: string; readonly until: Date };

export type RunMove =
  /** Run this step now, there; `outputs` are the results it may read, by step id. */
  | {
      readonly kind: 'run';
      readonly stepId: string;
      readonly scope: string;
      readonly outputs: ReadonlyMap<string, unknown>;
    }
  /** Pause, recording nothing, until `until` or until something wakes the run; the same step runs again. */
  | { readonly kind: 'suspend'; readonly until: Date }
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

/** What the run does next as its records stand: run a node somewhere, end on a failure, or nothing (done). */
type Next =
  | { readonly kind: 'run'; readonly node: PlanNode; readonly scope: string }
  | { readonly kind: 'fatal'; readonly record: RecordedStep };

interface Walk {
  readonly records: ReadonlyMap<string, RecordedStep>;
  /** A test run's target and the steps holding it: it takes their branch and their first item only. */
  readonly towards: ReadonlySet<string> | null;
}

/** The branches a paths step's record says were taken. */
const takenBranches = (output: unknown): ReadonlySet<string> => {
  const taken = (output as { taken?: unknown } | null)?.taken;
  return new Set(
    Array.isArray(taken)
      ? taken.map((branch) => (branch as { id?: unknown })?.id).filter((id) => typeof id === 'string')
      : [],
  );
};

/** How many items a loop's record says it has. */
const itemCount = (output: unknown): number => {
  const items = (output as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? items.length : 0;
};

const walkPaths = (
  node: PathsNode,
  record: RecordedStep,
  iterations: readonly Iteration[],
  walk: Walk,
): Next | null => {
  const taken = takenBranches(record.output);
  const towards = node.branches.find((branch) => walk.towards?.has(branch.stepId));
  for (const branch of towards ? [towards] : node.branches.filter((b) => taken.has(b.stepId))) {
    const next = walkNodes(branch.nodes, iterations, walk);
    if (next) return next;
  }
  return null;
};

const walkLoop = (node: LoopNode, record: RecordedStep, iterations: readonly Iteration[], walk: Walk): Next | null => {
  const count = walk.towards?.has(node.stepId) ? Math.min(1, itemCount(record.output)) : itemCount(record.output);
  for (let index = 0; index < count; index++) {
    const next = walkNodes(node.nodes, [...iterations, { loopId: node.stepId, index }], walk);
    if (next) return next;
  }
  return null;
};

/**
 * The first node, depth first, that has no record where it runs. A failed step ends the run unless
 * it continues on failure; a failure inside a paths or loop step that continues on failure ends
 * only that step's branches or iterations.
 */
function walkNodes(nodes: readonly PlanNode[], iterations: readonly Iteration[], walk: Walk): Next | null {
  const scope = scopeKey(iterations);
  for (const node of nodes) {
    const record = walk.records.get(stepKeyOf(node.stepId, scope));
    if (!record) return { kind: 'run', node, scope };
    if (record.status === 'failure') {
      if (node.continueOnFailure) continue;
      return { kind: 'fatal', record };
    }
    if (node.kind === 'step') continue;
    const inner =
      node.kind === 'paths' ? walkPaths(node, record, iterations, walk) : walkLoop(node, record, iterations, walk);
    if (!inner || (inner.kind === 'fatal' && node.continueOnFailure)) continue;
    return inner;
  }
  return null;
}

/** The steps that hold `stepId`, and the step itself. */
const pathTo = (nodes: readonly PlanNode[], stepId: string): string[] | null => {
  for (const node of nodes) {
    if (node.stepId === stepId) return [stepId];
    const inner =
      node.kind === 'paths'
        ? node.branches.map((branch) => {
            const below = pathTo(branch.nodes, stepId);
            return below && [branch.stepId, ...below];
          })
        : node.kind === 'loop'
          ? [pathTo(node.nodes, stepId)]
          : [];
    const found = inner.find((path) => path !== null);
    if (found) return [node.stepId, ...found];
  }
  return null;
};

const nextOf = (plan: RunPlan, state: RunState): Next | null => {
  const records = new Map(state.records.map((record) => [stepKeyOf(record.stepId, record.scope), record]));
  const path = state.untilStepId === null ? null : pathTo(plan.nodes, state.untilStepId);
  // A test run's target that is not in the flow (any more) is not ahead of it: it has nothing to run.
  if (state.untilStepId !== null && !path) return null;
  return walkNodes(plan.nodes, [], { records, towards: path && new Set(path) });
};

/**
 * What a step running in `scope` may read, by step id: every success recorded there or further out;
 * a loop it runs in as `{ items, count, item, index }`; a loop that ended before it as
 * `{ items, count, results }`, `results` holding each iteration's last output.
 */
export const outputsAt = (plan: RunPlan, records: readonly RecordedStep[], scope: string): Map<string, unknown> => {
  const outputs = new Map<string, unknown>();
  /** Where each output the step sees was made. */
  const madeIn = new Map<string, string>();
  const lastByScope = new Map<string, unknown>();
  for (const record of records) {
    if (record.status !== 'success') continue;
    lastByScope.set(record.scope, record.output);
    if (encloses(scope, record.scope)) {
      outputs.set(record.stepId, record.output);
      madeIn.set(record.stepId, record.scope);
    }
  }
  const inside = new Map(iterationsOf(scope).map(({ loopId, index }) => [loopId, index]));
  for (const [stepId, output] of outputs) {
    if (!plan.loops.has(stepId)) continue;
    const items = (output as { items?: unknown } | null)?.items;
    const list = Array.isArray(items) ? items : [];
    const index = inside.get(stepId);
    if (index !== undefined) {
      outputs.set(stepId, { ...(output as object), item: list[index], index });
    } else {
      const made = madeIn.get(stepId) ?? '';
      const prefix = made === '' ? '' : `${made}/`;
      const results = list.map((_item, i) => lastByScope.get(`${prefix}${stepId}:${i}`) ?? null);
      outputs.set(stepId, { ...(output as object), results });
    }
  }
  return outputs;
};

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
  const next = nextOf(plan, state);
  if (next?.kind === 'fatal') return finish(state, failedBy(next.record));
  const reached = state.untilStepId !== null && state.records.some((record) => record.stepId === state.untilStepId);
  if (!next || reached) return finish(state, null);
  return {
    state: { ...state, status: 'running' },
    record: null,
    move: {
      kind: 'run',
      stepId: next.node.stepId,
      scope: next.scope,
      outputs: outputsAt(plan, state.records, next.scope),
    },
  };
};

/** Records the step's result, then goes on, pauses or ends as the result and the step say. */
const recordAndGoOn = (
  plan: RunPlan,
  state: RunState,
  record: RecordedStep,
  then: { stop: boolean; failure: string | null; pauseUntil: Date | null },
): Transition => {
  const recorded: RunState = { ...state, attempts: 0, records: [...state.records, record] };
  if (then.stop) {
    const failed = then.failure === null ? null : { stepId: record.stepId, error: then.failure };
    return { ...finish(recorded, failed), record };
  }
  const next = proceed(plan, recorded);
  // A test run does not wait: the editor wants the whole answer now.
  if (next.move.kind === 'run' && then.pauseUntil && !state.testRun) {
    return {
      state: { ...recorded, status: 'waiting' },
      record,
      move: { kind: 'wait', until: then.pauseUntil, attempts: 0, retry: false },
    };
  }
  return { ...next, record };
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
  const scope = event.scope ?? '';
  const current = nextOf(plan, state);
  if (current?.kind !== 'run' || current.node.stepId !== event.stepId || current.scope !== scope) {
    return refuse(state, 'The run is not at that step.');
  }
  // Paths and loops only choose where the run goes: not tasks.
  const task = current.node.kind === 'step';
  if (event.kind === 'suspended') {
    return {
      state: { ...state, status: 'waiting', attempts: 0 },
      record: null,
      move: { kind: 'suspend', until: event.until },
    };
  }
  if (event.kind === 'succeeded') {
    const record = { stepId: event.stepId, scope, status: 'success', output: event.output, error: null, task } as const;
    return recordAndGoOn(plan, state, record, {
      stop: event.stop === true,
      failure: event.failure ?? null,
      pauseUntil: event.pauseUntil ?? null,
    });
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
  const record = { stepId: event.stepId, scope, status: 'failure', output: null, error: event.error, task } as const;
  return recordAndGoOn(plan, state, record, { stop: false, failure: null, pauseUntil: null });
};
