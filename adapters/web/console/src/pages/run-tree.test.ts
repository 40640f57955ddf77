import { describe, expect, it } from 'vitest';
import type { Execution, ExecutionStep, Flow, Step } from '../types';
import { buildRunTree, calledRunOf, waitingFor } from './run-tree';
import { treeStep as step } from './tree-step.fixture';

// t; p (paths) { vip: [v], other (fallback): [o] }; l (loop) [i]; w
const steps = [
  step('t', 1, null),
  step('p', 2, null, 'paths'),
  step('vip', 3, 'p', 'branch', {
    name: 'VIP',
    branchConditions: [{ and: [{ key: 'k', operator: 'equal', value: 'v' }] }],
  }),
  step('v', 4, 'vip'),
  step('other', 5, 'p', 'branch', { name: 'Otherwise' }),
  step('o', 6, 'other'),
  step('l', 7, null, 'loop'),
  step('i', 8, 'l'),
  step('w', 9, null, 'single', { appKey: 'wait', key: 'waitForApproval', name: 'Approve' }),
];

let n = 0;
const record = (stepId: string, place: Partial<ExecutionStep> = {}, dataOut: unknown = {}): ExecutionStep => {
  n += 1;
  return {
    id: `r${n}`,
    executionId: 'e',
    stepId,
    status: 'success',
    dataIn: {},
    dataOut,
    errorDetails: null,
    parentStepId: null,
    branchId: null,
    iteration: null,
    scope: '',
    createdAt: n,
    step: steps.find((s) => s.id === stepId) ?? null,
    ...place,
  };
};

const execution = (records: ExecutionStep[], status: Execution['status'] = 'success'): Execution => ({
  id: 'e',
  flowId: 'f',
  status,
  testRun: false,
  flowVersion: null,
  retryOf: null,
  createdAt: 0,
  finishedAt: null,
  flow: { steps } as Flow,
  steps: records,
});

const ran = [
  record('t'),
  record('p', {}, { mode: 'first', taken: [{ id: 'vip', name: 'VIP' }] }),
  record('v', { parentStepId: 'vip', branchId: 'vip' }),
  record('l', {}, { items: ['a', 'b'], count: 2 }),
  record('i', { parentStepId: 'l', iteration: 0, scope: 'l:0' }),
  record('i', { parentStepId: 'l', iteration: 1, scope: 'l:1' }),
];

describe("the console's tree of a run", () => {
  it('places each record in its branch or iteration, and marks the branches not taken', () => {
    const tree = buildRunTree(execution(ran));
    expect(tree.nodes.map((node) => node.record.stepId)).toEqual(['t', 'p', 'l']);
    const branches = tree.nodes[1]?.branches ?? [];
    expect(branches.map((b) => [b.name, b.taken, b.fallback, b.list.nodes.length])).toEqual([
      ['VIP', true, false, 1],
      ['Otherwise', false, true, 0],
    ]);
    const loop = tree.nodes[2];
    expect(loop?.itemCount).toBe(2);
    expect(loop?.iterations?.map((it) => [it.index, it.list.nodes.map((node) => node.record.id)])).toEqual([
      [0, [ran[4]?.id]],
      [1, [ran[5]?.id]],
    ]);
    expect(tree.others).toEqual([]);
    expect(tree.waiting).toBeNull();
  });

  it('shows where a running run is: the step it runs has no record yet', () => {
    const tree = buildRunTree(execution(ran.slice(0, 2), 'running'));
    expect(tree.nodes[1]?.branches?.[0]?.list.waiting?.id).toBe('v');
    expect(buildRunTree(execution(ran, 'running')).waiting?.id).toBe('w');
  });

  it('shows where a waiting run stands: the first step of the walk without a record', () => {
    const tree = buildRunTree(execution(ran, 'waiting'));
    expect(tree.waiting?.id).toBe('w');
    expect(waitingFor(tree.waiting as Step)).toBe('Waiting for an approval');
    // An agent's step waits while a person decides on a tool call it asked to make.
    expect(waitingFor({ ...(tree.waiting as Step), appKey: 'agents', key: 'runAgent' })).toBe(
      'Waiting for a tool call’s approval',
    );
    // Waiting in the loop's second iteration, before its step ran there.
    const inLoop = buildRunTree(execution(ran.slice(0, 5), 'waiting'));
    expect(inLoop.waiting).toBeNull();
    const iterations = inLoop.nodes[2]?.iterations ?? [];
    expect(iterations.map((it) => [it.index, it.list.waiting?.id ?? null])).toEqual([
      [0, null],
      [1, 'i'],
    ]);
    // Waiting in the branch taken.
    const inBranch = buildRunTree(execution(ran.slice(0, 2), 'waiting'));
    expect(inBranch.nodes[1]?.branches?.[0]?.list.waiting?.id).toBe('v');
  });

  it('keeps records of runs from before flows were trees, in order, and any record without a place', () => {
    const legacy = ran.slice(0, 2).map(({ parentStepId, branchId, iteration, scope, ...rest }) => rest);
    expect(buildRunTree(execution(legacy)).nodes.map((node) => node.record.stepId)).toEqual(['t', 'p']);
    const orphan = record('x', { parentStepId: 'gone', scope: 'gone:0' });
    expect(buildRunTree(execution([...ran, orphan])).others).toEqual([orphan]);
  });

  it('links the run a "Call a flow" step started', () => {
    const call = step('c', 10, null, 'single', { appKey: 'flows', key: 'callFlow' });
    expect(calledRunOf({ ...record('c', {}, { executionId: 'child', status: 'success' }), step: call })).toBe('child');
    expect(calledRunOf(record('v', {}, { executionId: 'child' }))).toBeNull();
  });
});
