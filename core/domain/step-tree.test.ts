import { describe, expect, it } from 'vitest';
import type { BranchConditions, StructuralType } from './flow.js';
import {
  arranged,
  depthFirst,
  type Link,
  MAX_STEP_DEPTH,
  newStructure,
  pathsMode,
  pathsParameters,
  placeMoved,
  placeNew,
  placeOf,
  placeWithout,
  readBranchConditions,
  relinks,
  STRUCTURAL_ACTIONS,
  stepsBefore,
  structureRefusal,
  subtreeIds,
  type TreeStep,
} from './step-tree.js';

const CONDITION: BranchConditions = [{ and: [{ key: '{{step.t.x}}', operator: 'equal', value: '1' }] }];

/** A step of a tree: `[id, parent, structuralType?]`, positions in the order listed. */
const tree = (...rows: Array<[string, string | null, StructuralType?, BranchConditions?]>): TreeStep[] =>
  rows.map(([id, parentStepId, structuralType = 'single', conditions], index) => ({
    id,
    parentStepId,
    position: index + 1,
    type: index === 0 ? 'trigger' : 'action',
    structuralType,
    branchConditions: structuralType === 'branch' ? (conditions ?? CONDITION) : null,
    ...(structuralType === 'single' ? { appKey: null, key: null } : STRUCTURAL_ACTIONS[structuralType]),
  }));

/**
 * t, a, paths p { branch b1 { x, loop l { y } }, branch b2 (fallback) { z } }, c
 */
const sample = () =>
  tree(
    ['t', null],
    ['a', null],
    ['p', null, 'paths'],
    ['b1', 'p', 'branch'],
    ['x', 'b1'],
    ['l', 'b1', 'loop'],
    ['y', 'l'],
    ['b2', 'p', 'branch', []],
    ['z', 'b2'],
    ['c', null],
  );

const order = (links: readonly Link[]) => depthFirst(links).map((s) => `${s.id}@${s.position}<${s.parentStepId ?? ''}`);
const fields = (refusal: ReturnType<typeof structureRefusal>) => (refusal?.code === 'input.invalid' ? refusal : null);

describe('depthFirst, subtreeIds, stepsBefore', () => {
  it('orders each step before the steps inside it, siblings by position, whatever the list order', () => {
    const steps = sample();
    expect(depthFirst([...steps].reverse()).map((s) => s.id)).toEqual(steps.map((s) => s.id));
    const shuffled = steps.map((s) => (s.id === 'b2' ? { ...s, position: 0 } : s));
    expect(depthFirst(shuffled).map((s) => s.id)).toEqual(['t', 'a', 'p', 'b2', 'z', 'b1', 'x', 'l', 'y', 'c']);
  });

  it('counts a step whose parent is missing as top level, and puts steps in a cycle last', () => {
    const steps: Link[] = [
      { id: 't', parentStepId: null, position: 1 },
      { id: 'lost', parentStepId: 'gone', position: 2 },
      { id: 'u', parentStepId: 'v', position: 3 },
      { id: 'v', parentStepId: 'u', position: 4 },
    ];
    expect(depthFirst(steps).map((s) => s.id)).toEqual(['t', 'lost', 'u', 'v']);
  });

  it('finds a subtree, and what a step can read', () => {
    const steps = sample();
    expect(subtreeIds(steps, 'p')).toEqual(['p', 'b1', 'b2', 'x', 'l', 'z', 'y']);
    expect(subtreeIds(steps, 'x')).toEqual(['x']);
    const ids = (id: string) => stepsBefore(steps, id).map((s) => s.id);
    expect(ids('y')).toEqual(['t', 'a', 'p', 'b1', 'x', 'l']);
    expect(ids('z')).toEqual(['t', 'a', 'p', 'b2']);
    expect(ids('b2')).toEqual(['t', 'a', 'p']);
    expect(ids('c')).toEqual(['t', 'a', 'p']);
    expect(ids('t')).toEqual([]);
    expect(ids('missing')).toEqual([]);
  });
});

describe('placeOf', () => {
  const steps = sample();
  const place = (input: Parameters<typeof placeOf>[1]) => {
    const placed = placeOf(steps, input);
    return placed.ok ? placed.value : placed.error;
  };

  it("puts a step next to the previous one in that one's parent, or first in a parent", () => {
    expect(place({ previousStepId: 'a' })).toEqual({ parentStepId: null, previousStepId: 'a' });
    expect(place({ previousStepId: 'x' })).toEqual({ parentStepId: 'b1', previousStepId: 'x' });
    expect(place({ parentStepId: 'b1' })).toEqual({ parentStepId: 'b1', previousStepId: null });
    expect(place({ parentStepId: 'b1', previousStepId: 'b1' })).toEqual({ parentStepId: 'b1', previousStepId: null });
    expect(place({ parentStepId: 'b1', previousStepId: 'l' })).toEqual({ parentStepId: 'b1', previousStepId: 'l' });
    expect(place({ parentStepId: null, previousStepId: 'p' })).toEqual({ parentStepId: null, previousStepId: 'p' });
  });

  it('refuses places that are not in the flow, not in the parent, or before the trigger', () => {
    expect(place({ previousStepId: 'elsewhere' })).toEqual({
      code: 'input.invalid',
      fields: { previousStepId: ['is not a step of this flow.'] },
    });
    expect(place({ parentStepId: 'elsewhere' })).toMatchObject({ fields: { parentStepId: expect.any(Array) } });
    expect(place({ parentStepId: 'b1', previousStepId: 'y' })).toMatchObject({
      fields: { previousStepId: ['is not a step directly inside parentStepId.'] },
    });
    expect(place({})).toMatchObject({ fields: { previousStepId: expect.any(Array) } });
    expect(place({ parentStepId: null })).toMatchObject({ fields: { previousStepId: expect.any(Array) } });
  });
});

describe('placeNew, placeMoved, placeWithout', () => {
  const steps = sample();

  it('adds a structure after a sibling, its own steps below it, renumbering depth-first', () => {
    const added = newStructure(
      { structuralType: 'loop', name: null, branchConditions: null, siblingBranches: 0 },
      (() => {
        let n = 0;
        return () => `n${++n}`;
      })(),
    );
    const placed = placeNew(steps, { parentStepId: 'b1', previousStepId: 'x' }, added);
    expect(order(placed)).toEqual([
      't@1<',
      'a@2<',
      'p@3<',
      'b1@4<p',
      'x@5<b1',
      'n1@6<b1',
      'n2@7<n1',
      'l@8<b1',
      'y@9<l',
      'b2@10<p',
      'z@11<b2',
      'c@12<',
    ]);
    expect(relinks(steps, placed).map((s) => s.id)).toEqual(['l', 'y', 'b2', 'z', 'c']);
    const first = placeNew(steps, { parentStepId: 'b2', previousStepId: null }, [
      { id: 'new', parentStepId: null, position: 1 },
    ]);
    expect(order(first).slice(7, 10)).toEqual(['b2@8<p', 'new@9<b2', 'z@10<b2']);
  });

  it('moves a step with everything inside it, in and out of branches and loops', () => {
    const moved = placeMoved(steps, 'l', { parentStepId: null, previousStepId: 'c' });
    expect(moved.ok && order(moved.value)).toEqual([
      't@1<',
      'a@2<',
      'p@3<',
      'b1@4<p',
      'x@5<b1',
      'b2@6<p',
      'z@7<b2',
      'c@8<',
      'l@9<',
      'y@10<l',
    ]);
    const inward = placeMoved(steps, 'a', { parentStepId: 'l', previousStepId: 'y' });
    expect(inward.ok && order(inward.value).slice(0, 8)).toEqual([
      't@1<',
      'p@2<',
      'b1@3<p',
      'x@4<b1',
      'l@5<b1',
      'y@6<l',
      'a@7<l',
      'b2@8<p',
    ]);
    const swapped = placeMoved(steps, 'b2', { parentStepId: 'p', previousStepId: null });
    expect(swapped.ok && order(swapped.value).slice(2, 6)).toEqual(['p@3<', 'b2@4<p', 'z@5<b2', 'b1@6<p']);
    const still = placeMoved(steps, 'x', { parentStepId: 'b1', previousStepId: 'x' });
    expect(still.ok && relinks(steps, still.value)).toEqual([]);
  });

  it('refuses to move a step into itself', () => {
    expect(placeMoved(steps, 'p', { parentStepId: 'l', previousStepId: null })).toEqual({
      ok: false,
      error: { code: 'input.invalid', fields: { parentStepId: ['cannot be the step itself or a step inside it.'] } },
    });
    expect(placeMoved(steps, 'l', { parentStepId: 'l', previousStepId: null }).ok).toBe(false);
  });

  it('removes a step with its subtree and closes the gap', () => {
    const { removed, placed } = placeWithout(steps, 'b1');
    expect(removed).toEqual(['b1', 'x', 'l', 'y']);
    expect(order(placed)).toEqual(['t@1<', 'a@2<', 'p@3<', 'b2@4<p', 'z@5<b2', 'c@6<']);
    expect(placeWithout(steps, 'c').placed).toEqual(
      steps.slice(0, -1).map(({ id, parentStepId, position }) => ({ id, parentStepId, position })),
    );
  });

  it('gives the steps their new places', () => {
    const moved = placeMoved(steps, 'c', { parentStepId: 'b2', previousStepId: 'z' });
    if (!moved.ok) throw new Error('refused');
    expect(arranged(steps, moved.value).find((s) => s.id === 'c')).toMatchObject({ parentStepId: 'b2', position: 10 });
  });
});

describe('newStructure', () => {
  const ids = () => {
    let n = 0;
    return () => `s${++n}`;
  };

  it('gives a paths step two branches, "Branch 1" to fill in and the fallback, each with an empty step', () => {
    const added = newStructure(
      { structuralType: 'paths', name: null, branchConditions: null, siblingBranches: 0 },
      ids(),
    );
    expect(added.map((s) => [s.id, s.parentStepId, s.structuralType, s.appKey, s.key, s.name])).toEqual([
      ['s1', null, 'paths', 'branches', 'execute', null],
      ['s2', 's1', 'branch', 'branches', 'executeBranch', 'Branch 1'],
      ['s3', 's2', 'single', null, null, null],
      ['s4', 's1', 'branch', 'branches', 'executeBranch', 'Otherwise'],
      ['s5', 's4', 'single', null, null, null],
    ]);
    expect(added[0]?.parameters).toEqual({ mode: 'first' });
    expect(added[1]?.branchConditions).toEqual([{ and: [{ key: '', operator: 'is_not_empty', value: '' }] }]);
    expect(added[3]?.branchConditions).toEqual([]);
  });

  it('gives a loop and a branch an empty step inside; a branch is named after its number', () => {
    const loop = newStructure(
      { structuralType: 'loop', name: 'Each order', branchConditions: null, siblingBranches: 0 },
      ids(),
    );
    expect(loop.map((s) => [s.structuralType, s.parentStepId, s.name])).toEqual([
      ['loop', null, 'Each order'],
      ['single', 's1', null],
    ]);
    const branch = newStructure(
      { structuralType: 'branch', name: null, branchConditions: [], siblingBranches: 2 },
      ids(),
    );
    expect(branch.map((s) => [s.structuralType, s.name, s.branchConditions])).toEqual([
      ['branch', 'Branch 3', []],
      ['single', null, null],
    ]);
  });
});

describe('structureRefusal', () => {
  it('accepts a well-formed tree', () => {
    expect(structureRefusal(sample())).toBeNull();
  });

  it('keeps the trigger first and alone, and ids unique', () => {
    const steps = sample();
    const first = steps.map((s) => (s.id === 'a' ? { ...s, position: 0 } : s));
    expect(fields(structureRefusal(first))?.fields).toEqual({ steps: ['The first step must be a trigger.'] });
    const two = steps.map((s) => (s.id === 'c' ? { ...s, type: 'trigger' as const } : s));
    expect(fields(structureRefusal(two))?.fields).toEqual({ steps: ['Only the first step may be a trigger.'] });
    expect(fields(structureRefusal([...steps, { ...(steps[1] as TreeStep) }]))?.fields).toEqual({
      steps: ['Each step must have its own id.'],
    });
    expect(fields(structureRefusal([]))?.fields.steps).toEqual(['The first step must be a trigger.']);
  });

  it("refuses a parent that cannot hold the step, with Automatisch's type", () => {
    const refused = (rows: Parameters<typeof tree>) => fields(structureRefusal(tree(...rows)));
    expect(
      refused([
        ['t', null],
        ['a', null],
        ['b', 'a'],
      ]),
    ).toEqual({
      code: 'input.invalid',
      fields: { parentStepId: ['must be a paths, branch or loop step: a single step holds no steps.'] },
      type: 'invalidParentStepStructuralTypeError',
    });
    expect(
      refused([
        ['t', null],
        ['p', null, 'paths'],
        ['x', 'p'],
      ])?.fields,
    ).toEqual({
      parentStepId: ['is a paths step, which holds only branches.'],
    });
    expect(
      refused([
        ['t', null],
        ['b', null, 'branch'],
      ])?.type,
    ).toBe('invalidParentStepStructuralTypeError');
    expect(
      refused([
        ['t', null],
        ['l', null, 'loop'],
        ['b', 'l', 'branch'],
      ])?.fields,
    ).toEqual({
      parentStepId: ['must be a paths step: a branch sits in a paths step.'],
    });
    const nested = tree(['t', null], ['l', null, 'loop']).map((s) => (s.id === 't' ? { ...s, parentStepId: 'l' } : s));
    expect(fields(structureRefusal(nested))?.fields.parentStepId).toEqual([
      'must be null: the trigger is at the top level.',
    ]);
  });

  it('refuses parents not in the flow and steps inside themselves', () => {
    expect(fields(structureRefusal(tree(['t', null], ['a', 'gone'])))?.fields).toEqual({
      parentStepId: ['is not a step of this flow.'],
    });
    const cycle = tree(['t', null], ['l', 'm', 'loop'], ['m', 'l', 'loop']);
    expect(fields(structureRefusal(cycle))?.fields.parentStepId).toEqual([
      'cannot be the step itself or a step inside it.',
    ]);
    expect(fields(structureRefusal(tree(['t', null], ['l', 'l', 'loop'])))?.fields.parentStepId).toEqual([
      'cannot be the step itself or a step inside it.',
    ]);
  });

  it('checks branch conditions: well formed, only on branches, one fallback per paths step', () => {
    const steps = sample();
    const second = steps.map((s) => (s.id === 'b1' ? { ...s, branchConditions: [] } : s));
    expect(fields(structureRefusal(second))).toEqual({
      code: 'input.invalid',
      fields: { branchConditions: ['must not be empty: a paths step has at most one fallback branch.'] },
      type: 'invalidBranchConditionsError',
    });
    const onSingle = steps.map((s) => (s.id === 'a' ? { ...s, branchConditions: CONDITION } : s));
    expect(fields(structureRefusal(onSingle))?.type).toBe('invalidBranchConditionsError');
    const missing = steps.map((s) => (s.id === 'b1' ? { ...s, branchConditions: null } : s));
    expect(fields(structureRefusal(missing))?.fields).toEqual({ branchConditions: ['are required for a branch.'] });
    const bad = steps.map((s) =>
      s.id === 'b1' ? { ...s, branchConditions: [{ and: [{ key: 'k', operator: 'like', value: 'v' }] }] } : s,
    );
    expect(fields(structureRefusal(bad))?.fields.branchConditions?.[0]).toMatch(/unknown operator/);
  });

  it('keeps structural steps their built-in actions, and single steps out of them', () => {
    const steps = sample();
    const paths = steps.map((s) => (s.id === 'p' ? { ...s, appKey: 'filter' } : s));
    expect(fields(structureRefusal(paths))?.fields).toEqual({
      appKey: ['must be branches with key execute for a paths step.'],
    });
    const single = steps.map((s) => (s.id === 'a' ? { ...s, appKey: 'loop', key: 'loopOverItems' } : s));
    expect(fields(structureRefusal(single))?.fields.appKey).toHaveLength(1);
  });

  it(`refuses a step inside more than ${MAX_STEP_DEPTH} paths and loop steps`, () => {
    const rows: Parameters<typeof tree> = [['t', null]];
    for (let depth = 0; depth < MAX_STEP_DEPTH; depth++) {
      rows.push([`p${depth}`, depth === 0 ? null : `b${depth - 1}`, 'paths'], [`b${depth}`, `p${depth}`, 'branch']);
    }
    rows.push(['deepest', `b${MAX_STEP_DEPTH - 1}`]);
    expect(structureRefusal(tree(...rows))).toBeNull();
    rows.push(['loop', `b${MAX_STEP_DEPTH - 1}`, 'loop'], ['too-deep', 'loop']);
    expect(fields(structureRefusal(tree(...rows)))?.fields).toEqual({
      parentStepId: [`is too deep: a step sits inside at most ${MAX_STEP_DEPTH} paths and loop steps.`],
    });
  });

  it('names fields as the caller asks', () => {
    const steps = tree(['t', null], ['a', null], ['b', 'a']);
    const refusal = structureRefusal(steps, (p) => `steps.${steps.findIndex((s) => s.id === p.stepId)}.${p.field}`);
    expect(fields(refusal)?.fields).toEqual({
      'steps.2.parentStepId': ['must be a paths, branch or loop step: a single step holds no steps.'],
    });
  });
});

describe('conditions and modes', () => {
  it('reads conditions, a missing key or value as empty text, and refuses what is not conditions', () => {
    expect(readBranchConditions([{ and: [{ key: 'k', operator: 'is_empty' }] }])).toEqual({
      ok: true,
      value: [{ and: [{ key: 'k', operator: 'is_empty', value: '' }] }],
    });
    expect(readBranchConditions([])).toEqual({ ok: true, value: [] });
    for (const bad of [null, {}, [{}], [{ and: [] }], [{ and: [{ key: 1, operator: 'equal' }] }], [{ and: ['x'] }]]) {
      const read = readBranchConditions(bad);
      expect(read.ok, JSON.stringify(bad)).toBe(false);
      if (!read.ok) expect(read.error).toMatchObject({ type: 'invalidBranchConditionsError' });
    }
  });

  it("takes Automatisch's branchMode as the mode of a paths step", () => {
    expect(pathsParameters({ branchMode: 'parallel' })).toEqual({ mode: 'all' });
    expect(pathsParameters({ branchMode: 'conditional' })).toEqual({ mode: 'first' });
    expect(pathsParameters({ branchMode: 'parallel', mode: 'first' })).toEqual({ mode: 'first' });
    expect(pathsMode({ branchMode: 'parallel' })).toBe('all');
    expect(pathsMode({ mode: 'all' })).toBe('all');
    expect(pathsMode({})).toBe('first');
  });
});
