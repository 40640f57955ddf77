import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { context, fresh, succeeded, T0, triggerRecord } from '../../test/support/run-machine.js';
import type { BackoffPolicy } from './backoff.js';
import { decide, type RecordedStep, type RunEvent, type RunMove, type RunPlan, type RunState } from './run-machine.js';

/** Properties of the run state machine: a simulated engine drives it through random step outcomes, crashes and timers. */

type Outcome =
  | { readonly kind: 'success' | 'stop' | 'pause' }
  | { readonly kind: 'fail'; readonly retryable: boolean; readonly retryAfterMs: number | undefined };

const outcomeArb: fc.Arbitrary<Outcome> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'success' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'stop' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'pause' } as const) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('fail' as const),
      retryable: fc.boolean(),
      retryAfterMs: fc.option(fc.integer({ min: 0, max: 10 * 60_000 }), { nil: undefined }),
    }),
  },
);

const scenarioArb = fc
  .record({
    steps: fc.array(fc.boolean(), { maxLength: 6 }),
    testRun: fc.boolean(),
    until: fc.option(fc.integer({ min: 0, max: 7 }), { nil: null }),
    policy: fc
      .record({ maxAttempts: fc.integer({ min: 1, max: 5 }), baseDelayMs: fc.integer({ min: 1, max: 5_000 }) })
      .chain((p) =>
        fc.integer({ min: p.baseDelayMs, max: 600_000 }).map((maxDelayMs): BackoffPolicy => ({ ...p, maxDelayMs })),
      ),
    random: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    copied: fc.integer({ min: 0, max: 6 }),
    script: fc.array(fc.record({ outcome: outcomeArb, crash: fc.boolean() }), { maxLength: 40 }),
  })
  .map((s) => {
    const plan: RunPlan = {
      triggerId: 'trigger',
      places: new Map(),
      loops: new Set(),
      nodes: s.steps.map((continueOnFailure, i) => ({ kind: 'step', stepId: `s${i}`, continueOnFailure })),
    };
    // A retry of a failed run starts with copies of the successes before the step that failed.
    const copied = plan.nodes.slice(0, Math.min(s.copied, Math.max(0, plan.nodes.length - 1)));
    const records: RecordedStep[] = [
      triggerRecord,
      ...copied.map((node) => ({
        stepId: node.stepId,
        scope: '',
        status: 'success' as const,
        output: 0,
        error: null,
        task: false,
      })),
    ];
    const untilStepId = s.testRun && s.until !== null ? `s${s.until}` : null;
    const start = fresh({ testRun: s.testRun, untilStepId, records });
    return { ...s, plan, start };
  });

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

interface Driven {
  readonly finishes: Extract<RunMove, { kind: 'finish' }>[];
  readonly final: RunState;
  readonly runs: string[];
  readonly waits: { move: Extract<RunMove, { kind: 'wait' }>; delayMs: number; after: Outcome | null }[];
  readonly stopped: boolean;
}

/**
 * Plays the engine: carries out each move, persists each transition unless the worker "crashes"
 * first (then the result is lost and a new worker resumes from what was persisted), fires timers.
 */
const drive = (scenario: Scenario): Driven => {
  const { plan, start, policy, random, script } = scenario;
  const driven: Driven & { stopped: boolean } = { finishes: [], final: start, runs: [], waits: [], stopped: false };
  let now = T0;
  let persisted = start;
  let transition = decide(
    plan,
    persisted,
    { kind: 'resumed' },
    context(now, policy, () => random),
  );
  let lastOutcome: Outcome | null = null;
  for (let turn = 0; turn < 500; turn++) {
    const { move } = transition;
    persisted = transition.state;
    if (move.kind === 'finish') {
      driven.finishes.push(move);
      return { ...driven, final: persisted };
    }
    if (move.kind === 'refuse') throw new Error(`the machine refused its own path: ${move.reason}`);
    if (move.kind === 'wait') {
      driven.waits.push({ move, delayMs: move.until.getTime() - now.getTime(), after: lastOutcome });
      now = move.until;
      // The timer fires: a worker claims the run (running again) and resumes it.
      transition = decide(plan, { ...persisted, status: 'running' }, { kind: 'resumed' }, context(now, policy));
      continue;
    }
    if (move.kind === 'suspend') throw new Error('no step of these runs suspends');
    const alreadySucceeded = persisted.records.some((r) => r.stepId === move.stepId && r.status === 'success');
    if (alreadySucceeded) throw new Error(`step ${move.stepId} ran again after it succeeded`);
    driven.runs.push(move.stepId);
    const { outcome, crash } = script[turn] ?? { outcome: { kind: 'success' } as const, crash: false };
    lastOutcome = outcome;
    const event: RunEvent =
      outcome.kind === 'fail'
        ? {
            kind: 'failed',
            stepId: move.stepId,
            error: { message: 'x' },
            retryable: outcome.retryable,
            ...(outcome.retryAfterMs !== undefined && { retryAfterMs: outcome.retryAfterMs }),
          }
        : {
            kind: 'succeeded',
            stepId: move.stepId,
            output: turn,
            ...(outcome.kind === 'stop' && { stop: true }),
            ...(outcome.kind === 'pause' && { pauseUntil: new Date(now.getTime() + 60_000) }),
          };
    const next = decide(
      plan,
      persisted,
      event,
      context(now, policy, () => random),
    );
    if (crash) {
      // The worker died before the transition was committed: the next worker resumes from the last commit.
      transition = decide(plan, { ...persisted, status: 'running' }, { kind: 'resumed' }, context(now, policy));
      continue;
    }
    if (next.record?.status === 'success' && outcome.kind === 'stop') driven.stopped = true;
    transition = next;
  }
  throw new Error('the run did not end within 500 turns');
};

const ahead = (scenario: Scenario): string[] => {
  const ids = scenario.plan.nodes.map((node) => node.stepId);
  const until = scenario.start.untilStepId;
  return until === null ? ids : ids.slice(0, ids.indexOf(until) + 1);
};

describe('the run state machine, as properties', () => {
  it('ends every run in exactly one terminal state, which no event leaves', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const driven = drive(scenario);
        expect(driven.finishes).toHaveLength(1);
        expect(['success', 'failure']).toContain(driven.final.status);
        expect(driven.final.status).toBe(driven.finishes[0]?.status);
        for (const event of [{ kind: 'resumed' } as const, { kind: 'ownerRemoved' } as const, succeeded('s0')]) {
          const after = decide(scenario.plan, driven.final, event, context());
          expect(after).toEqual({
            state: driven.final,
            record: null,
            move: expect.objectContaining({ kind: 'refuse' }),
          });
        }
      }),
      { numRuns: 1_500 },
    );
  });

  it('never runs a step again once its success is recorded, and takes steps in order up to the last asked for', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const driven = drive(scenario);
        const recorded = driven.final.records.slice(1).map((r) => r.stepId);
        expect(new Set(recorded).size).toBe(recorded.length);
        const order = ahead(scenario);
        // Records follow the flow's order (the copied ones first, whatever a test run asked for).
        expect(recorded).toEqual(scenario.plan.nodes.map((n) => n.stepId).slice(0, recorded.length));
        for (const stepId of driven.runs) expect(order).toContain(stepId);
        const finish = driven.finishes[0];
        if (finish?.status === 'success' && !driven.stopped) {
          for (const stepId of order) expect(recorded).toContain(stepId);
        }
      }),
      { numRuns: 1_500 },
    );
  });

  it('retries within the backoff policy: never past its attempts, each delay within its bounds, never in a test run', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const { policy } = scenario;
        const driven = drive(scenario);
        for (const { move, delayMs, after } of driven.waits) {
          if (!move.retry) continue;
          expect(scenario.testRun).toBe(false);
          expect(move.attempts).toBeGreaterThanOrEqual(1);
          expect(move.attempts).toBeLessThan(policy.maxAttempts);
          const floor = after?.kind === 'fail' ? Math.min(after.retryAfterMs ?? 0, policy.maxDelayMs) : 0;
          const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (move.attempts - 1));
          expect(delayMs).toBeGreaterThanOrEqual(floor);
          expect(delayMs).toBeLessThanOrEqual(Math.max(floor, ceiling));
        }
        if (scenario.testRun) expect(driven.waits).toEqual([]);
      }),
      { numRuns: 1_500 },
    );
  });

  it('ends as a failure exactly when a step it could not go past failed, and bills the actions it ran (a test run none)', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const driven = drive(scenario);
        const goesOn = new Set(scenario.plan.nodes.filter((n) => n.continueOnFailure).map((n) => n.stepId));
        const fatal = driven.final.records.find((r) => r.status === 'failure' && !goesOn.has(r.stepId));
        const finish = driven.finishes[0];
        expect(finish?.status).toBe(fatal ? 'failure' : 'success');
        expect(finish?.failed?.stepId ?? null).toBe(fatal?.stepId ?? null);
        expect(finish?.tasks).toBe(scenario.testRun ? null : driven.final.records.filter((r) => r.task).length);
        expect(driven.final.records.filter((r) => r.task).length).toBe(
          driven.final.records.length - scenario.start.records.length,
        );
      }),
      { numRuns: 1_500 },
    );
  });

  const eventArb: fc.Arbitrary<RunEvent> = fc.oneof(
    fc.constant({ kind: 'resumed' } as const),
    fc.constant({ kind: 'ownerRemoved' } as const),
    fc.record({
      kind: fc.constant('succeeded' as const),
      stepId: fc.constantFrom('s0', 's1', 's2', 'trigger', 'other'),
      output: fc.anything(),
      stop: fc.boolean(),
      pauseUntil: fc.option(fc.date({ noInvalidDate: true }), { nil: undefined }),
    }),
    fc.record({
      kind: fc.constant('failed' as const),
      stepId: fc.constantFrom('s0', 's1', 's2', 'trigger', 'other'),
      error: fc.record({ message: fc.string() }),
      retryable: fc.boolean(),
      retryAfterMs: fc.option(fc.integer({ min: -1_000, max: 10 ** 9 }), { nil: undefined }),
    }),
  );

  it('takes any sequence of events, in any state, without throwing; a finished run stays finished', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.constantFrom<RunState['status']>('running', 'waiting', 'success', 'failure'),
        fc.array(eventArb, { maxLength: 30 }),
        (scenario, status, events) => {
          let state: RunState = { ...scenario.start, status };
          let finishes = 0;
          for (const event of events) {
            const before = state;
            const { state: after, move, record } = decide(scenario.plan, state, event, context());
            if (before.status === 'success' || before.status === 'failure') {
              expect(after).toBe(before);
              expect(move.kind).toBe('refuse');
            }
            if (move.kind === 'refuse') expect([after, record]).toEqual([before, null]);
            if (move.kind === 'finish') finishes += 1;
            state = after;
          }
          expect(finishes).toBeLessThanOrEqual(status === 'success' || status === 'failure' ? 0 : 1);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
