import { describe, expect, it } from 'vitest';
import { context, fresh, succeeded, T0, triggerRecord } from '../../test/support/run-machine.js';
import {
  decide,
  type RecordedStep,
  type RunEvent,
  type RunMove,
  type RunPlan,
  type RunState,
  type Transition,
} from './run-machine.js';

const planOf = (steps: readonly (string | [string, 'goes on'])[]): RunPlan => ({
  triggerId: 'trigger',
  places: new Map(),
  loops: new Set(),
  nodes: steps.map((step) =>
    typeof step === 'string'
      ? { kind: 'step', stepId: step, continueOnFailure: false }
      : { kind: 'step', stepId: step[0], continueOnFailure: true },
  ),
});
const failed = (stepId: string, retryable = false, retryAfterMs?: number): RunEvent => ({
  kind: 'failed',
  stepId,
  error: { message: `${stepId} broke` },
  retryable,
  ...(retryAfterMs !== undefined && { retryAfterMs }),
});

/** Feeds events one after the other from `state`, each to the state the previous one left. */
const feed = (plan: RunPlan, state: RunState, events: readonly RunEvent[], ctx = context()): Transition[] => {
  const transitions: Transition[] = [];
  let current = state;
  for (const event of events) {
    const transition = decide(plan, current, event, ctx);
    transitions.push(transition);
    current = transition.state;
  }
  return transitions;
};
const lastMove = (transitions: readonly Transition[]): RunMove | undefined => transitions.at(-1)?.move;

describe('the run state machine, path by path', () => {
  const plan = planOf(['a', 'b']);

  it('runs the first step with the trigger’s output, then the next with both', () => {
    const [first, second] = feed(plan, fresh(), [{ kind: 'resumed' }, succeeded('a')]);
    expect(first?.move).toEqual({ kind: 'run', stepId: 'a', scope: '', outputs: new Map([['trigger', { n: 1 }]]) });
    expect(second?.record).toMatchObject({ stepId: 'a', status: 'success', task: true });
    expect(second?.move).toEqual({
      kind: 'run',
      stepId: 'b',
      scope: '',
      outputs: new Map<string, unknown>([
        ['trigger', { n: 1 }],
        ['a', { from: 'a' }],
      ]),
    });
  });

  it('ends as a success after the last step, billing each action it ran', () => {
    const moves = feed(plan, fresh(), [{ kind: 'resumed' }, succeeded('a'), succeeded('b')]);
    expect(lastMove(moves)).toEqual({ kind: 'finish', status: 'success', failed: null, tasks: 2 });
    expect(moves.at(-1)?.state.status).toBe('success');
  });

  it('ends as a success where a step says stop (a filter that did not match)', () => {
    const moves = feed(plan, fresh(), [{ kind: 'resumed' }, succeeded('a', { stop: true })]);
    expect(lastMove(moves)).toEqual({ kind: 'finish', status: 'success', failed: null, tasks: 1 });
  });

  it('ends as a failure at a step that fails for good, naming it', () => {
    const moves = feed(plan, fresh(), [{ kind: 'resumed' }, failed('a')]);
    expect(moves.at(-1)?.record).toMatchObject({ stepId: 'a', status: 'failure', error: { message: 'a broke' } });
    expect(lastMove(moves)).toEqual({
      kind: 'finish',
      status: 'failure',
      failed: { stepId: 'a', error: 'a broke' },
      tasks: 1,
    });
  });

  it('retries a retryable failure after backoff, then fails the step when attempts run out', () => {
    const moves = feed(plan, fresh(), [
      { kind: 'resumed' },
      failed('a', true),
      { kind: 'resumed' },
      failed('a', true),
      { kind: 'resumed' },
      failed('a', true),
    ]);
    expect(moves[1]?.move).toEqual({ kind: 'wait', until: new Date(T0.getTime() + 500), attempts: 1, retry: true });
    expect(moves[1]?.record).toBeNull();
    expect(moves[3]?.move).toMatchObject({ kind: 'wait', attempts: 2 });
    expect(moves[4]?.move).toMatchObject({ kind: 'run', stepId: 'a' });
    expect(lastMove(moves)).toMatchObject({ kind: 'finish', status: 'failure', failed: { stepId: 'a' } });
  });

  it('honours a server’s Retry-After as the floor of the delay', () => {
    const [, retry] = feed(plan, fresh(), [{ kind: 'resumed' }, failed('a', true, 30_000)]);
    expect(retry?.move).toMatchObject({ kind: 'wait', until: new Date(T0.getTime() + 30_000) });
  });

  it('goes on past a step that lets the run continue, and ends as a success if it was the last', () => {
    const goesOn = planOf([['a', 'goes on'], 'b']);
    const moves = feed(goesOn, fresh(), [{ kind: 'resumed' }, failed('a'), succeeded('b')]);
    expect(moves[1]?.move).toEqual({ kind: 'run', stepId: 'b', scope: '', outputs: new Map([['trigger', { n: 1 }]]) });
    expect(lastMove(moves)).toEqual({ kind: 'finish', status: 'success', failed: null, tasks: 2 });
    const lastGoesOn = planOf(['a', ['b', 'goes on']]);
    expect(lastMove(feed(lastGoesOn, fresh(), [{ kind: 'resumed' }, succeeded('a'), failed('b')]))).toEqual({
      kind: 'finish',
      status: 'success',
      failed: null,
      tasks: 2,
    });
  });

  it('pauses after a step that asks for a delay, then goes on with the next', () => {
    const until = new Date(T0.getTime() + 3_600_000);
    const moves = feed(plan, fresh(), [
      { kind: 'resumed' },
      succeeded('a', { pauseUntil: until }),
      { kind: 'resumed' },
    ]);
    expect(moves[1]?.move).toEqual({ kind: 'wait', until, attempts: 0, retry: false });
    expect(moves[1]?.state.status).toBe('waiting');
    expect(lastMove(moves)).toMatchObject({ kind: 'run', stepId: 'b' });
  });

  it('ends a run whose flow’s owner was removed as a failure, naming no step', () => {
    const [ended] = feed(plan, fresh(), [{ kind: 'ownerRemoved' }]);
    expect(ended?.move).toEqual({ kind: 'finish', status: 'failure', failed: null, tasks: 0 });
  });

  it('ends, on resuming, a run whose records hold a failure it cannot go past', () => {
    const broken: RecordedStep = {
      stepId: 'a',
      scope: '',
      status: 'failure',
      output: null,
      error: { message: 'x' },
      task: true,
    };
    const [ended] = feed(plan, fresh({ records: [triggerRecord, broken] }), [{ kind: 'resumed' }]);
    expect(ended?.move).toEqual({ kind: 'finish', status: 'failure', failed: { stepId: 'a', error: 'x' }, tasks: 1 });
  });

  it('never bills a test run, never makes it wait, and stops it at its last step', () => {
    const test = fresh({ testRun: true, untilStepId: 'a' });
    const until = new Date(T0.getTime() + 1_000);
    const moves = feed(planOf(['a', 'b', 'c']), test, [{ kind: 'resumed' }, succeeded('a', { pauseUntil: until })]);
    expect(lastMove(moves)).toEqual({ kind: 'finish', status: 'success', failed: null, tasks: null });
    const retried = feed(plan, fresh({ testRun: true }), [{ kind: 'resumed' }, failed('a', true)]);
    expect(lastMove(retried)).toMatchObject({ kind: 'finish', status: 'failure', tasks: null });
    const waits = feed(plan, fresh({ testRun: true }), [{ kind: 'resumed' }, succeeded('a', { pauseUntil: until })]);
    expect(lastMove(waits)).toMatchObject({ kind: 'run', stepId: 'b' });
  });

  it('ends a test run at once as a success when its last step is not ahead of it', () => {
    const [ended] = feed(plan, fresh({ testRun: true, untilStepId: 'gone' }), [{ kind: 'resumed' }]);
    expect(ended?.move).toEqual({ kind: 'finish', status: 'success', failed: null, tasks: null });
  });

  it('bills only the actions this run ran, not the records a retry copied', () => {
    const copied: RecordedStep = { stepId: 'a', scope: '', status: 'success', output: 1, error: null, task: false };
    const moves = feed(plan, fresh({ records: [triggerRecord, copied] }), [{ kind: 'resumed' }, succeeded('b')]);
    expect(moves[0]?.move).toMatchObject({ kind: 'run', stepId: 'b' });
    expect(lastMove(moves)).toMatchObject({ kind: 'finish', tasks: 1 });
  });

  it('refuses events that do not apply, changing nothing', () => {
    const state = fresh();
    for (const event of [succeeded('b'), failed('nope'), succeeded('trigger')]) {
      expect(decide(plan, state, event, context())).toEqual({
        state,
        record: null,
        move: { kind: 'refuse', reason: 'The run is not at that step.' },
      });
    }
    const waiting = fresh({ status: 'waiting' });
    expect(decide(plan, waiting, succeeded('a'), context()).move).toMatchObject({ kind: 'refuse' });
  });
});
