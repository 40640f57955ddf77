import { describe, expect, it } from 'vitest';
import type { Step } from '../types';
import { destinationsOf, sampleAskers, shiftedPlace, stepsBefore, subtreeOf } from './step-tree';
import { treeStep as step } from './tree-step.fixture';
import { choicesFor } from './variables';

// t; p (paths) { b1: [a1, a2], b2: [c1] }; l (loop) [i1, i2]; z
const flow = [
  step('t', 1, null),
  step('p', 2, null, 'paths'),
  step('b1', 3, 'p', 'branch', {
    name: 'Branch 1',
    branchConditions: [{ and: [{ key: 'x', operator: 'equal', value: '1' }] }],
  }),
  step('a1', 4, 'b1'),
  step('a2', 5, 'b1'),
  step('b2', 6, 'p', 'branch', { name: 'Otherwise' }),
  step('c1', 7, 'b2'),
  step('l', 8, null, 'loop'),
  step('i1', 9, 'l'),
  step('i2', 10, 'l'),
  step('z', 11, null),
];
const ids = (steps: readonly Step[]) => steps.map((s) => s.id);

describe("the console's flow tree", () => {
  it('reads, as previous steps, what sits around a step and its earlier siblings, never another branch or a loop body', () => {
    expect(ids(stepsBefore(flow, 'a2'))).toEqual(['t', 'p', 'b1', 'a1']);
    expect(ids(stepsBefore(flow, 'c1'))).toEqual(['t', 'p', 'b2']);
    expect(ids(stepsBefore(flow, 'i2'))).toEqual(['t', 'p', 'l', 'i1']);
    expect(ids(stepsBefore(flow, 'z'))).toEqual(['t', 'p', 'l']);
  });

  it('asks previous steps of the last step of each list, which between them name every readable step', () => {
    expect(ids(sampleAskers(flow)).sort()).toEqual(['a2', 'b2', 'c1', 'i2', 'z'].sort());
    const named = new Set(sampleAskers(flow).flatMap((s) => ids(stepsBefore(flow, s.id))));
    const readable = new Set(flow.flatMap((s) => ids(stepsBefore(flow, s.id))));
    expect(named).toEqual(readable);
  });

  it('moves a step up and down among its siblings, never above the trigger', () => {
    expect(shiftedPlace(flow, step('p', 2, null, 'paths'), -1)).toBeNull();
    expect(shiftedPlace(flow, flow[1] as Step, 1)).toEqual({ parentStepId: null, previousStepId: 'l' });
    expect(shiftedPlace(flow, flow[4] as Step, -1)).toEqual({ parentStepId: 'b1', previousStepId: null });
    expect(shiftedPlace(flow, flow[4] as Step, 1)).toBeNull();
    expect(shiftedPlace(flow, flow[10] as Step, -1)).toEqual({ parentStepId: null, previousStepId: 'p' });
    expect(shiftedPlace(flow, flow[5] as Step, -1)).toEqual({ parentStepId: 'p', previousStepId: null });
  });

  it('offers every other place for a step, never inside itself nor where it is, and none for a branch', () => {
    const places = destinationsOf(flow, flow[7] as Step).map((d) => d.place);
    expect(places).not.toContainEqual({ parentStepId: 'l', previousStepId: null });
    expect(places.some((p) => p.parentStepId === 'l' || p.previousStepId === 'i1')).toBe(false);
    expect(places).not.toContainEqual({ parentStepId: null, previousStepId: 'p' });
    expect(places).toContainEqual({ parentStepId: 'b1', previousStepId: null });
    expect(places).toContainEqual({ parentStepId: null, previousStepId: 'z' });
    const labels = destinationsOf(flow, flow[3] as Step).map((d) => d.label);
    expect(labels).toContain('At the start of loop 8. Loop over items');
    expect(labels).toContain('In branch "Otherwise" of 2. Paths, after 7. Empty step');
    expect(labels).not.toContain('At the start of branch "Branch 1" of 2. Paths');
    expect(destinationsOf(flow, flow[2] as Step)).toEqual([]);
    expect(destinationsOf(flow, flow[0] as Step)).toEqual([]);
  });

  it('takes a step with everything inside it', () => {
    expect(ids(subtreeOf(flow, 'p')).sort()).toEqual(['a1', 'a2', 'b1', 'b2', 'c1', 'p']);
  });

  it("offers a loop's item and index inside it, its results after it, and the resume URL everywhere", () => {
    const sampled = flow.map((s) =>
      s.id === 'l'
        ? { ...s, lastExecutionStep: { dataOut: { items: [{ name: 'ada' }], count: 1 } } as Step['lastExecutionStep'] }
        : s,
    );
    const inside = choicesFor(stepsBefore(sampled, 'i1'), new Set(['l']));
    expect(inside.flatMap((g) => g.choices.map((c) => c.text))).toEqual([
      '{{step.l.item}}',
      '{{step.l.item.name}}',
      '{{step.l.index}}',
      '{{execution.resumeUrl}}',
    ]);
    const after = choicesFor(stepsBefore(sampled, 'z'), new Set());
    expect(after.flatMap((g) => g.choices.map((c) => c.text))).toEqual([
      '{{step.l.results}}',
      '{{execution.resumeUrl}}',
    ]);
  });
});
