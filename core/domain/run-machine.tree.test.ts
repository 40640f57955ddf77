import { describe, expect, it } from 'vitest';
import { context, fresh } from '../../test/support/run-machine.js';
import type { Step } from './flow.js';
import { choosePaths, loopItems } from './flow-control.js';
import { decide, type RunEvent, type RunMove, type RunState, type Transition } from './run-machine.js';
import { planOf } from './run-plan.js';

/** Flows as trees: paths, branches and loops, walked by the run state machine. */

const T = new Date('2026-01-01T00:00:00Z');
let position = 0;
const step = (id: string, over: Partial<Step> = {}): Step => ({
  id,
  flowId: 'f',
  type: id === 'trigger' ? 'trigger' : 'action',
  appKey: 'formatter',
  key: 'text',
  name: id,
  position: ++position,
  status: 'completed',
  parameters: {},
  connectionId: null,
  appVersion: 1,
  continueOnFailure: false,
  structuralType: 'single',
  parentStepId: null,
  branchConditions: null,
  createdAt: T,
  updatedAt: T,
  ...over,
});
const when = (key: string, value: string) => [{ and: [{ key, operator: 'equal' as const, value }] }];

interface Driven {
  readonly runs: string[];
  readonly final: RunState;
  readonly end: Extract<RunMove, { kind: 'finish' }>;
  readonly seen: Map<string, ReadonlyMap<string, unknown>>;
}

/**
 * Plays the engine: paths and loops decided as the engine decides them, every other step
 * succeeding with what it saw (or failing, when `fails` says so), until the run ends.
 */
const drive = (
  steps: readonly Step[],
  state: RunState = fresh({ records: [{ ...fresh().records[0], output: { status: 'paid' } } as never] }),
  fails: (stepId: string, scope: string) => boolean = () => false,
): Driven => {
  const plan = planOf(steps);
  const byId = new Map(steps.map((s) => [s.id, s]));
  const runs: string[] = [];
  const seen = new Map<string, ReadonlyMap<string, unknown>>();
  let transition: Transition = decide(plan, state, { kind: 'resumed' }, context());
  for (let turn = 0; turn < 500; turn++) {
    const { move } = transition;
    if (move.kind === 'finish') return { runs, final: transition.state, end: move, seen };
    if (move.kind !== 'run') throw new Error(`unexpected move ${move.kind}`);
    const s = byId.get(move.stepId) as Step;
    const at = move.scope === '' ? s.id : `${s.id}@${move.scope}`;
    runs.push(at);
    seen.set(at, move.outputs);
    let event: RunEvent;
    if (s.structuralType === 'paths' || s.structuralType === 'loop') {
      const branches = steps.filter((b) => b.parentStepId === s.id && b.structuralType === 'branch');
      const decided =
        s.structuralType === 'paths' ? choosePaths(s, branches, move.outputs) : loopItems(s, move.outputs, 10_000);
      event = decided.ok
        ? { kind: 'succeeded', stepId: s.id, scope: move.scope, output: decided.output }
        : { kind: 'failed', stepId: s.id, scope: move.scope, error: decided.error, retryable: false };
    } else if (fails(s.id, move.scope)) {
      event = { kind: 'failed', stepId: s.id, scope: move.scope, error: { message: `${at} broke` }, retryable: false };
    } else {
      event = { kind: 'succeeded', stepId: s.id, scope: move.scope, output: { at } };
    }
    transition = decide(plan, transition.state, event, context());
  }
  throw new Error('the run did not end');
};

describe('a run walking a tree of steps', () => {
  const paths = (mode: 'first' | 'all', fallback = true) => {
    position = 0;
    return [
      step('trigger'),
      step('before'),
      step('paths', { structuralType: 'paths', appKey: 'branches', key: 'execute', parameters: { mode } }),
      step('paid', {
        structuralType: 'branch',
        parentStepId: 'paths',
        branchConditions: when('{{step.trigger.status}}', 'paid'),
      }),
      step('thank', { parentStepId: 'paid' }),
      step('notEmpty', {
        structuralType: 'branch',
        parentStepId: 'paths',
        branchConditions: [{ and: [{ key: '{{step.trigger.status}}', operator: 'is_not_empty', value: '' }] }],
      }),
      step('log', { parentStepId: 'notEmpty' }),
      ...(fallback
        ? [
            step('otherwise', { structuralType: 'branch', parentStepId: 'paths', branchConditions: [] }),
            step('remind', { parentStepId: 'otherwise' }),
          ]
        : []),
      step('after'),
    ];
  };

  it('takes the first branch whose conditions hold, then the steps after the paths, which read its output', () => {
    const driven = drive(paths('first'));
    expect(driven.runs).toEqual(['before', 'paths', 'thank', 'after']);
    expect(driven.seen.get('after')?.get('thank')).toEqual({ at: 'thank' });
    expect(driven.final.records.find((r) => r.stepId === 'paths')?.output).toEqual({
      mode: 'first',
      taken: [{ id: 'paid', name: 'paid' }],
    });
    // The paths step chose; it is not a task.
    expect(driven.end).toMatchObject({ status: 'success', tasks: 3 });
  });

  it('takes every matching branch in order in mode all, and the fallback only when none matches', () => {
    expect(drive(paths('all')).runs).toEqual(['before', 'paths', 'thank', 'log', 'after']);
    const unpaid = fresh({ records: [{ ...fresh().records[0], output: { status: '' } } as never] });
    expect(drive(paths('all'), unpaid).runs).toEqual(['before', 'paths', 'remind', 'after']);
    expect(drive(paths('first', false), unpaid).runs).toEqual(['before', 'paths', 'after']);
  });

  const loop = () => {
    position = 0;
    return [
      step('trigger'),
      step('list', {
        structuralType: 'loop',
        appKey: 'loop',
        key: 'loopOverItems',
        parameters: { items: '["a","b","c"]' },
      }),
      step('inside', { parentStepId: 'list', parameters: { text: '{{step.list.item}}' } }),
      step('last', { parentStepId: 'list' }),
      step('after'),
    ];
  };

  it('runs a loop’s body once per item, in order, with item and index, and hands each iteration’s last output on', () => {
    const driven = drive(loop());
    expect(driven.runs).toEqual([
      'list',
      'inside@list:0',
      'last@list:0',
      'inside@list:1',
      'last@list:1',
      'inside@list:2',
      'last@list:2',
      'after',
    ]);
    expect(driven.seen.get('inside@list:1')?.get('list')).toMatchObject({ item: 'b', index: 1, count: 3 });
    expect(driven.seen.get('after')?.get('list')).toMatchObject({
      results: [{ at: 'last@list:0' }, { at: 'last@list:1' }, { at: 'last@list:2' }],
    });
    // Each step inside the loop is billed once per iteration; the loop itself is not a task.
    expect(driven.end).toMatchObject({ status: 'success', tasks: 7 });
  });

  it('runs every inner item for every outer item when loops nest', () => {
    position = 0;
    const steps = [
      step('trigger'),
      step('outer', { structuralType: 'loop', parameters: { items: '[1,2]' } }),
      step('inner', { structuralType: 'loop', parentStepId: 'outer', parameters: { items: '["x","y","z"]' } }),
      step('body', { parentStepId: 'inner' }),
    ];
    const driven = drive(steps);
    const bodies = driven.runs.filter((at) => at.startsWith('body@'));
    expect(bodies).toEqual([
      'body@outer:0/inner:0',
      'body@outer:0/inner:1',
      'body@outer:0/inner:2',
      'body@outer:1/inner:0',
      'body@outer:1/inner:1',
      'body@outer:1/inner:2',
    ]);
    expect(driven.seen.get('body@outer:1/inner:2')?.get('outer')).toMatchObject({ item: 2, index: 1 });
    expect(driven.seen.get('body@outer:1/inner:2')?.get('inner')).toMatchObject({ item: 'z', index: 2 });
  });

  it('fails the run when an iteration fails, unless the loop goes on past its failure', () => {
    const failing = (stepId: string, scope: string) => stepId === 'inside' && scope === 'list:1';
    const failed = drive(loop(), undefined, failing);
    expect(failed.runs).toEqual(['list', 'inside@list:0', 'last@list:0', 'inside@list:1']);
    expect(failed.end).toMatchObject({ status: 'failure', failed: { stepId: 'inside', error: 'inside@list:1 broke' } });

    const forgiving = loop().map((s) => (s.id === 'list' ? { ...s, continueOnFailure: true } : s));
    const goesOn = drive(forgiving, undefined, failing);
    expect(goesOn.runs.at(-1)).toBe('after');
    expect(goesOn.end).toMatchObject({ status: 'success' });
  });

  it('fails a loop whose items are not a list, or more than it may have', () => {
    const notAList = loop().map((s) => (s.id === 'list' ? { ...s, parameters: { items: 'plain text' } } : s));
    expect(drive(notAList).end).toMatchObject({ status: 'failure', failed: { stepId: 'list' } });
    const tooMany = loop().map((s) => (s.id === 'list' ? { ...s, parameters: { items: '[1,2,3]', maxItems: 2 } } : s));
    expect(drive(tooMany).end.failed?.error).toContain('more than its limit of 2');
  });

  it('tests a step inside a branch by taking its branch, and one inside a loop on the first item only', () => {
    const unpaid = fresh({
      testRun: true,
      untilStepId: 'thank',
      records: [{ ...fresh().records[0], output: { status: '' } } as never],
    });
    expect(drive(paths('first'), unpaid).runs).toEqual(['before', 'paths', 'thank']);
    const inLoop = drive(loop(), fresh({ testRun: true, untilStepId: 'last' }));
    expect(inLoop.runs).toEqual(['list', 'inside@list:0', 'last@list:0']);
    expect(inLoop.end).toMatchObject({ status: 'success', tasks: null });
  });

  it('refuses an event for the right step in another iteration, and runs a suspended step again when resumed', () => {
    const steps = loop();
    const plan = planOf(steps);
    const state = fresh({
      records: [
        ...fresh().records,
        { stepId: 'list', scope: '', status: 'success', output: { items: ['a'], count: 1 }, error: null, task: false },
      ],
    });
    const wrong = decide(plan, state, { kind: 'succeeded', stepId: 'inside', scope: 'list:5', output: 1 }, context());
    expect(wrong.move).toEqual({ kind: 'refuse', reason: 'The run is not at that step.' });
    const until = new Date(T.getTime() + 60_000);
    const paused = decide(plan, state, { kind: 'suspended', stepId: 'inside', scope: 'list:0', until }, context());
    expect(paused).toMatchObject({ record: null, move: { kind: 'suspend', until }, state: { status: 'waiting' } });
    const again = decide(plan, { ...paused.state, status: 'running' }, { kind: 'resumed' }, context());
    expect(again.move).toMatchObject({ kind: 'run', stepId: 'inside', scope: 'list:0' });
  });

  it('ends the run as a failure, with its reason, when a step stops it so', () => {
    position = 0;
    const steps = [step('trigger'), step('stop'), step('never')];
    const plan = planOf(steps);
    const stopped = decide(
      plan,
      fresh(),
      { kind: 'succeeded', stepId: 'stop', output: { status: 'failure' }, stop: true, failure: 'Out of stock' },
      context(),
    );
    expect(stopped.record).toMatchObject({ stepId: 'stop', status: 'success' });
    expect(stopped.move).toEqual({
      kind: 'finish',
      status: 'failure',
      failed: { stepId: 'stop', error: 'Out of stock' },
      tasks: 1,
    });
  });
});
