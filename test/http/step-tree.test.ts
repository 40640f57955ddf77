import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_STEP_DEPTH } from '../../core/domain/step-tree.js';
import { DIALECTS } from '../support/databases.js';
import { completeFlow, type FlowWorld, startFlowWorld } from '../support/flow-fixtures.js';

/**
 * Issue 20: flows are trees (paths with branches, loops) as users edit them over the API: adding,
 * changing, moving and deleting steps with what is inside them; positions flow-wide depth-first.
 */
describe.each(DIALECTS)('the tree of a flow (%s)', (dialect) => {
  let world: FlowWorld;
  let token: string;
  beforeEach(async () => {
    world = await startFlowWorld(dialect);
    token = world.bob.token;
  });
  afterEach(() => world.close());

  const call = (method: string, path: string, body?: unknown, status?: number) =>
    world.call(method, path, token, body, status);
  const refused = async (method: string, path: string, body: unknown) => {
    const res = await world.instance.request(method, path, { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    return { errors: res.body.errors, type: res.body.meta.type };
  };
  type Row = { id: string; position: number; parentStepId: string | null; structuralType: string };
  const stepsOf = async (flowId: string): Promise<Row[]> => (await call('GET', `/flows/${flowId}`)).steps;
  /** The flow as `name@position<parent-name`, where each step is named by the caller. */
  const shape = async (flowId: string, names: Record<string, string>) =>
    (await stepsOf(flowId)).map((s) => {
      const name = (id: string | null) => (id === null ? '' : (names[id] ?? '?'));
      return `${name(s.id)}@${s.position}<${name(s.parentStepId)}`;
    });

  /** A flow with a paths step after its trigger: ids of the trigger, action, paths, branches and their steps. */
  const pathsFlow = async () => {
    const flow = await world.newFlow(token);
    const paths = await call('POST', `/flows/${flow.id}/steps`, {
      previousStepId: flow.triggerId,
      structuralType: 'paths',
    });
    const steps = await stepsOf(flow.id);
    const [, , first, inFirst, fallback, inFallback] = steps.map((s) => s.id) as string[];
    return {
      ...flow,
      paths: paths.id as string,
      first: first as string,
      inFirst: inFirst as string,
      fallback: fallback as string,
      inFallback: inFallback as string,
      names: {
        [flow.triggerId]: 't',
        [flow.actionId]: 'a',
        [paths.id]: 'p',
        [first as string]: 'b1',
        [inFirst as string]: 'x1',
        [fallback as string]: 'b2',
        [inFallback as string]: 'x2',
      } as Record<string, string>,
    };
  };

  it('adds a paths step with two branches, each with an empty step, depth-first, complete as they are', async () => {
    const flow = await world.newFlow(token);
    const paths = await call('POST', `/flows/${flow.id}/steps`, {
      previousStepId: flow.triggerId,
      structuralType: 'paths',
      name: 'Route orders',
    });
    expect(paths).toMatchObject({
      type: 'action',
      structuralType: 'paths',
      parentStepId: null,
      branchConditions: null,
      appKey: 'branches',
      key: 'execute',
      name: 'Route orders',
      parameters: { mode: 'first' },
      position: 2,
      status: 'completed',
      iconUrl: '/apps/branches/assets/favicon.svg',
    });
    const steps = await stepsOf(flow.id);
    expect(steps.map((s) => [s.position, s.structuralType, s.parentStepId])).toEqual([
      [1, 'single', null],
      [2, 'paths', null],
      [3, 'branch', paths.id],
      [4, 'single', steps[2]?.id],
      [5, 'branch', paths.id],
      [6, 'single', steps[4]?.id],
      [7, 'single', null],
    ]);
    expect(steps[2]).toMatchObject({
      name: 'Branch 1',
      appKey: 'branches',
      key: 'executeBranch',
      status: 'completed',
      branchConditions: [{ and: [{ key: '', operator: 'is_not_empty', value: '' }] }],
    });
    expect(steps[4]).toMatchObject({ name: 'Otherwise', branchConditions: [], status: 'completed' });
    expect(steps[3]).toMatchObject({ appKey: null, status: 'incomplete', branchConditions: null });
    expect(steps[6]?.id).toBe(flow.actionId);
  });

  it('adds loops, branches and steps inside them, by parent or by previous step', async () => {
    const f = await pathsFlow();
    const third = await call('POST', `/flows/${f.id}/steps`, { parentStepId: f.paths, previousStepId: f.first });
    expect(third).toMatchObject({ structuralType: 'branch', name: 'Branch 3', parentStepId: f.paths });
    const loop = await call('POST', `/flows/${f.id}/steps`, { previousStepId: f.inFirst, structuralType: 'loop' });
    expect(loop).toMatchObject({ structuralType: 'loop', appKey: 'loop', key: 'loopOverItems', status: 'incomplete' });
    const first = await call('POST', `/flows/${f.id}/steps`, { parentStepId: loop.id });
    const top = await call('POST', `/flows/${f.id}/steps`, { previousStepId: f.paths, parentStepId: null });
    const steps = await stepsOf(f.id);
    const names: Record<string, string> = {
      ...f.names,
      [third.id]: 'b3',
      [loop.id]: 'l',
      [first.id]: 'y0',
      [top.id]: 'c',
    };
    const loopChild = steps.find((s) => s.parentStepId === loop.id && s.id !== first.id)?.id as string;
    const thirdChild = steps.find((s) => s.parentStepId === third.id)?.id as string;
    expect(await shape(f.id, { ...names, [loopChild]: 'y1', [thirdChild]: 'x3' })).toEqual([
      't@1<',
      'p@2<',
      'b1@3<p',
      'x1@4<b1',
      'l@5<b1',
      'y0@6<l',
      'y1@7<l',
      'b3@8<p',
      'x3@9<b3',
      'b2@10<p',
      'x2@11<b2',
      'c@12<',
      'a@13<',
    ]);
    // A branch's steps can read the steps it sits in, not those of another branch.
    const readable = await call('GET', `/steps/${loopChild}/previous-steps`);
    expect(readable.map((s: { id: string }) => names[s.id])).toEqual(['t', 'p', 'b1', 'x1', 'l', 'y0']);
  });

  it("refuses a tree out of shape, with Automatisch's error types", async () => {
    const f = await pathsFlow();
    const steps = `/flows/${f.id}/steps`;
    expect(await refused('POST', steps, { parentStepId: f.actionId })).toEqual({
      errors: { parentStepId: ['must be a paths, branch or loop step: a single step holds no steps.'] },
      type: 'invalidParentStepStructuralTypeError',
    });
    expect(await refused('POST', steps, { parentStepId: f.paths, structuralType: 'single' })).toEqual({
      errors: { parentStepId: ['is a paths step, which holds only branches.'] },
      type: 'invalidParentStepStructuralTypeError',
    });
    expect((await refused('POST', steps, { previousStepId: f.actionId, structuralType: 'branch' })).type).toBe(
      'invalidParentStepStructuralTypeError',
    );
    expect(await refused('POST', steps, { parentStepId: f.paths, branchConditions: [] })).toEqual({
      errors: { branchConditions: ['must not be empty: a paths step has at most one fallback branch.'] },
      type: 'invalidBranchConditionsError',
    });
    const badOperator = [{ and: [{ key: 'a', operator: 'like', value: 'b' }] }];
    expect((await refused('POST', steps, { parentStepId: f.paths, branchConditions: badOperator })).type).toBe(
      'invalidBranchConditionsError',
    );
    expect((await refused('POST', steps, { parentStepId: f.paths, branchConditions: 'yes' })).type).toBe(
      'invalidBranchConditionsError',
    );
    expect(await refused('POST', steps, { previousStepId: f.actionId, branchConditions: [{ and: [] }] })).toMatchObject(
      { type: 'invalidBranchConditionsError' },
    );
    expect(await refused('POST', steps, { parentStepId: f.inFirst, previousStepId: f.first })).toMatchObject({
      type: 'ValidationError',
    });
    expect(await refused('POST', steps, { parentStepId: null })).toMatchObject({
      errors: { previousStepId: ['is required at the top level: nothing goes before the trigger.'] },
    });
    expect(await refused('POST', steps, { structuralType: 'tree', previousStepId: f.triggerId })).toMatchObject({
      type: 'ValidationError',
      errors: { structuralType: [expect.stringContaining('must be one of')] },
    });
    // Nothing refused was written.
    expect(await shape(f.id, f.names)).toEqual(['t@1<', 'p@2<', 'b1@3<p', 'x1@4<b1', 'b2@5<p', 'x2@6<b2', 'a@7<']);
  });

  it(`refuses a step inside more than ${MAX_STEP_DEPTH} paths and loops`, async () => {
    const flow = await world.newFlow(token);
    let parent: string | null = null;
    let previous: string = flow.triggerId;
    for (let depth = 0; depth < MAX_STEP_DEPTH; depth++) {
      const loop: { id: string } = await call('POST', `/flows/${flow.id}/steps`, {
        ...(parent === null ? { previousStepId: previous } : { parentStepId: parent }),
        structuralType: 'loop',
      });
      previous = loop.id;
      parent = loop.id;
    }
    const tooDeep = await refused('POST', `/flows/${flow.id}/steps`, { parentStepId: parent, structuralType: 'loop' });
    expect(tooDeep).toEqual({
      errors: { parentStepId: [`is too deep: a step sits inside at most ${MAX_STEP_DEPTH} paths and loop steps.`] },
      type: 'ValidationError',
    });
    expect(await call('POST', `/flows/${flow.id}/steps`, { parentStepId: parent })).toMatchObject({
      parentStepId: parent,
    });
  });

  it("changes a branch's conditions and name, a paths step's mode and a loop's items; refuses other changes", async () => {
    const f = await pathsFlow();
    const conditions = [{ and: [{ key: `{{step.${f.triggerId}.body.kind}}`, operator: 'equal', value: 'order' }] }];
    const branch = await call('PATCH', `/steps/${f.first}`, { branchConditions: conditions, name: 'Orders' });
    expect(branch).toMatchObject({ branchConditions: conditions, name: 'Orders', status: 'completed' });
    const missingValue = await call('PATCH', `/steps/${f.first}`, {
      branchConditions: [{ and: [{ key: 'k', operator: 'is_empty' }] }],
    });
    expect(missingValue.branchConditions).toEqual([{ and: [{ key: 'k', operator: 'is_empty', value: '' }] }]);
    expect(await refused('PATCH', `/steps/${f.first}`, { branchConditions: [] })).toEqual({
      errors: { branchConditions: ['must not be empty: a paths step has at most one fallback branch.'] },
      type: 'invalidBranchConditionsError',
    });
    expect((await refused('PATCH', `/steps/${f.first}`, { branchConditions: [{ or: [] }] })).type).toBe(
      'invalidBranchConditionsError',
    );
    expect(await refused('PATCH', `/steps/${f.inFirst}`, { branchConditions: conditions })).toEqual({
      errors: { branchConditions: ['must be null: only a branch has conditions.'] },
      type: 'invalidBranchConditionsError',
    });

    expect(await call('PATCH', `/steps/${f.paths}`, { parameters: { branchMode: 'parallel' } })).toMatchObject({
      parameters: { mode: 'all' },
      status: 'completed',
    });
    expect((await call('PATCH', `/steps/${f.paths}`, { parameters: { mode: 'sometimes' } })).status).toBe('incomplete');
    expect(await refused('PATCH', `/steps/${f.paths}`, { appKey: 'filter' })).toMatchObject({
      errors: { appKey: ['must be branches with key execute for a paths step.'] },
    });
    expect(
      (await refused('PATCH', `/steps/${f.actionId}`, { appKey: 'loop', key: 'loopOverItems' })).errors.appKey,
    ).toHaveLength(1);

    const loop = await call('POST', `/flows/${f.id}/steps`, { previousStepId: f.actionId, structuralType: 'loop' });
    const items = await call('PATCH', `/steps/${loop.id}`, { parameters: { items: '[1, 2, 3]', maxItems: 2 } });
    expect(items.status).toBe('completed');
    expect((await call('PATCH', `/steps/${loop.id}`, { parameters: { items: 'not a list' } })).status).toBe(
      'incomplete',
    );
    const variable = { items: `{{step.${f.triggerId}.body.orders}}` };
    expect((await call('PATCH', `/steps/${loop.id}`, { parameters: variable })).status).toBe('completed');
  });

  it('deletes a step with everything inside it and closes the gap', async () => {
    const f = await pathsFlow();
    await call('DELETE', `/steps/${f.first}`);
    expect(await shape(f.id, f.names)).toEqual(['t@1<', 'p@2<', 'b2@3<p', 'x2@4<b2', 'a@5<']);
    await call('DELETE', `/steps/${f.paths}`);
    expect(await shape(f.id, f.names)).toEqual(['t@1<', 'a@2<']);
    expect((await world.instance.request('GET', `/steps/${f.inFallback}/previous-steps`, { token })).status).toBe(404);
  });

  it('moves a step with what is inside it, in and out of branches and loops, and refuses what breaks the tree', async () => {
    const f = await pathsFlow();
    const move = (id: string, body: unknown) => call('POST', `/steps/${id}/move`, body, 200);
    const loop = await call('POST', `/flows/${f.id}/steps`, { previousStepId: f.actionId, structuralType: 'loop' });
    const inLoop = (await stepsOf(f.id)).find((s) => s.parentStepId === loop.id)?.id as string;
    const names = { ...f.names, [loop.id]: 'l', [inLoop]: 'y' };

    // The action goes into the first branch, after its step; then the loop, with its step, into the fallback.
    expect(await move(f.actionId, { previousStepId: f.inFirst })).toMatchObject({
      parentStepId: f.first,
      position: 5,
    });
    await move(loop.id, { parentStepId: f.fallback });
    expect(await shape(f.id, names)).toEqual([
      't@1<',
      'p@2<',
      'b1@3<p',
      'x1@4<b1',
      'a@5<b1',
      'b2@6<p',
      'l@7<b2',
      'y@8<l',
      'x2@9<b2',
    ]);
    // Branches swap places; the paths step leaves with everything in it, after the trigger still.
    await move(f.fallback, { parentStepId: f.paths });
    expect((await shape(f.id, names)).slice(2, 4)).toEqual(['b2@3<p', 'l@4<b2']);
    await move(f.inFirst, { previousStepId: f.paths });
    expect((await shape(f.id, names)).slice(0, 3)).toEqual(['t@1<', 'p@2<', 'b2@3<p']);
    expect((await shape(f.id, names)).at(-1)).toBe('x1@9<');

    const refusedMove = (id: string, body: unknown) => refused('POST', `/steps/${id}/move`, body);
    expect(await refusedMove(f.paths, { parentStepId: loop.id })).toEqual({
      errors: { parentStepId: ['cannot be the step itself or a step inside it.'] },
      type: 'ValidationError',
    });
    expect((await refusedMove(f.actionId, { parentStepId: f.paths })).type).toBe(
      'invalidParentStepStructuralTypeError',
    );
    expect((await refusedMove(f.first, { previousStepId: f.inFirst })).type).toBe(
      'invalidParentStepStructuralTypeError',
    );
    const other = await call('POST', `/flows/${f.id}/steps`, { previousStepId: f.inFirst, structuralType: 'paths' });
    expect((await refusedMove(f.fallback, { parentStepId: other.id })).type).toBe('invalidBranchConditionsError');
    expect((await refusedMove(f.triggerId, { previousStepId: f.inFirst })).errors).toEqual({
      steps: ['The first step must be a trigger.'],
    });
    expect((await refusedMove(f.actionId, { previousStepId: (await world.newFlow(token)).actionId })).errors).toEqual({
      previousStepId: ['is not a step of this flow.'],
    });
  });

  it('keeps the draft revision: a move or a creation based on an older revision is refused with 409', async () => {
    const f = await pathsFlow();
    const flow = await call('GET', `/flows/${f.id}`);
    const moved = await world.instance.request('POST', `/steps/${f.actionId}/move`, {
      token,
      body: { parentStepId: f.first },
      headers: { 'if-match': `"${flow.draftRevision}"` },
    });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).toBe(`"${flow.draftRevision + 1}"`);
    const stale = await world.instance.request('POST', `/steps/${f.actionId}/move`, {
      token,
      body: { previousStepId: f.triggerId },
      headers: { 'if-match': `"${flow.draftRevision}"` },
    });
    expect(stale.status).toBe(409);
    const staleCreate = await world.instance.request('POST', `/flows/${f.id}/steps`, {
      token,
      body: { previousStepId: f.triggerId, structuralType: 'loop' },
      headers: { 'if-match': `"${flow.draftRevision}"` },
    });
    expect(staleCreate.status).toBe(409);
    expect((await stepsOf(f.id)).length).toBe(7);
  });

  it('publishes only when every step on every path is complete, and versions keep the tree', async () => {
    const flow = await world.newFlow(token);
    await completeFlow(world, token, flow);
    const loop = await call('POST', `/flows/${flow.id}/steps`, {
      previousStepId: flow.actionId,
      structuralType: 'loop',
    });
    const publish = async () =>
      world.instance.request('PATCH', `/flows/${flow.id}/status`, { token, body: { active: true } });
    expect((await publish()).body.meta.type).toBe('IncompleteStepsError');
    await call('PATCH', `/steps/${loop.id}`, { parameters: { items: `{{step.${flow.triggerId}.body.items}}` } });
    expect((await publish()).body.meta.type).toBe('IncompleteStepsError');
    const inside = (await stepsOf(flow.id)).find((s) => s.parentStepId === loop.id) as Row;
    await call('PATCH', `/steps/${inside.id}`, {
      appKey: 'test-webhook',
      key: 'respondWith',
      parameters: { statusCode: 200, body: 'ok' },
    });
    const published = await publish();
    expect(published.status).toBe(200);
    const version = await call('GET', `/flows/${flow.id}/versions/${published.body.data.publishedVersion.id}`);
    expect(version.steps.map((s: Row) => [s.structuralType, s.parentStepId])).toEqual([
      ['single', null],
      ['single', null],
      ['loop', null],
      ['single', loop.id],
    ]);

    // A change of the tree is a change of the draft; discarding it brings the tree back.
    await call('POST', `/steps/${inside.id}/move`, { previousStepId: loop.id }, 200);
    const changes = await call('GET', `/flows/${flow.id}/versions/compare?from=${version.id}`);
    expect(changes.changes.changed).toEqual([expect.objectContaining({ stepId: inside.id })]);
    const discarded = await call('DELETE', `/flows/${flow.id}/draft`, undefined, 200);
    expect(discarded.steps.map((s: Row) => s.parentStepId)).toEqual([null, null, null, loop.id]);
    expect(discarded.hasDraftChanges).toBe(false);
  });

  it('duplicates, exports and imports a flow with its tree under new ids', async () => {
    const f = await pathsFlow();
    const conditions = [{ and: [{ key: `{{step.${f.triggerId}.body.kind}}`, operator: 'equal', value: 'order' }] }];
    await call('PATCH', `/steps/${f.first}`, { branchConditions: conditions });
    const copy = await call('POST', `/flows/${f.id}/duplicate`);
    const exported = await call('POST', `/flows/${f.id}/export`);
    const imported = await call('POST', '/flows/import', exported);
    const template = await world.call('POST', '/admin/templates', world.adminToken, { name: 'Tree', flowId: f.id });
    await world.call('PATCH', '/admin/config', world.adminToken, { enableTemplates: true });
    const fromTemplate = await call('POST', `/flows?templateId=${template.id}`);
    for (const flow of [copy, imported, fromTemplate]) {
      const [trigger, paths, first, inFirst, fallback] = flow.steps;
      expect(flow.steps.map((s: Row) => s.structuralType)).toEqual([
        'single',
        'paths',
        'branch',
        'single',
        'branch',
        'single',
        'single',
      ]);
      expect([first.parentStepId, inFirst.parentStepId, fallback.parentStepId]).toEqual([paths.id, first.id, paths.id]);
      expect(first.branchConditions).toEqual([
        { and: [{ key: `{{step.${trigger.id}.body.kind}}`, operator: 'equal', value: 'order' }] },
      ]);
      expect(JSON.stringify(flow)).not.toContain(f.paths);
    }
    expect(exported.steps[2]).toMatchObject({ structuralType: 'branch', parentStepId: exported.steps[1].id });

    // An import is held to the tree's rules, each step's fields named by its index.
    const loose = exported.steps.map((s: Row, i: number) => (i === 2 ? { ...s, parentStepId: null } : s));
    expect(await refused('POST', '/flows/import', { ...exported, steps: loose })).toEqual({
      errors: { 'steps.2.parentStepId': ['must be a paths step: a branch sits in a paths step.'] },
      type: 'invalidParentStepStructuralTypeError',
    });
    const bad = exported.steps.map((s: Row, i: number) => (i === 4 ? { ...s, branchConditions: [] } : s));
    bad[2] = { ...bad[2], branchConditions: [] };
    expect((await refused('POST', '/flows/import', { ...exported, steps: bad })).type).toBe(
      'invalidBranchConditionsError',
    );
  });
});
