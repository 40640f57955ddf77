import { describe, expect, it } from 'vitest';
import { treeStep as step } from '../tree-step.fixture';
import { placeForDrop } from './reorder';

// t, a, p (paths) { b1: [x, y, z], b2: [] }, c
const flow = [
  step('t', 1, null),
  step('a', 2, null),
  step('p', 3, null, 'paths'),
  step('b1', 4, 'p', 'branch'),
  step('x', 5, 'b1'),
  step('y', 6, 'b1'),
  step('z', 7, 'b1'),
  step('b2', 8, 'p', 'branch'),
  step('c', 9, null),
];
const byId = (id: string) => {
  const found = flow.find((s) => s.id === id);
  if (!found) throw new Error(id);
  return found;
};
const drop = (dragged: string, target: string) => placeForDrop(flow, byId(dragged), byId(target));

describe("the canvas's drag to reorder", () => {
  it('puts a step dragged down after its target, and one dragged up before it', () => {
    expect(drop('x', 'z')).toEqual({ parentStepId: 'b1', previousStepId: 'z' });
    expect(drop('z', 'y')).toEqual({ parentStepId: 'b1', previousStepId: 'x' });
    expect(drop('z', 'x')).toEqual({ parentStepId: 'b1', previousStepId: null });
    expect(drop('c', 'a')).toEqual({ parentStepId: null, previousStepId: 't' });
  });

  it('never moves a step above the trigger, nor the trigger, nor out of its list', () => {
    expect(drop('c', 't')).toEqual({ parentStepId: null, previousStepId: 't' });
    expect(drop('a', 't')).toBeNull();
    expect(drop('t', 'c')).toBeNull();
    expect(drop('x', 'c')).toBeNull();
    expect(drop('x', 'x')).toBeNull();
    expect(drop('b2', 'b1')).toEqual({ parentStepId: 'p', previousStepId: null });
  });
});
