import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StepType } from '../../core/domain/flow.js';
import { ok } from '../../core/domain/result.js';
import type { NewStep } from '../../ports/flow-repositories.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

const PAGE = { page: 1, perPage: 10 };

describe.each(DIALECTS)('flow, step, folder and template repositories contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    alice = await insertUser(fx.repos);
    bob = await insertUser(fx.repos);
  });
  afterEach(() => fx.close());

  const newFlow = async (userId: string, name = 'Flow', now = T0, folderId: string | null = null) =>
    fx.repos.flows.insert({ id: randomUUID(), userId, name, folderId, now });

  const step = (flowId: string, position: number, over: Partial<NewStep> = {}): NewStep => ({
    id: randomUUID(),
    flowId,
    position,
    type: (position === 1 ? 'trigger' : 'action') as StepType,
    appKey: null,
    key: null,
    name: null,
    parameters: {},
    connectionId: null,
    status: 'incomplete',
    appVersion: null,
    now: T0,
    ...over,
  });

  const newConnection = async (userId: string, appKey = 'smtp') =>
    (
      await fx.repos.connections.insert({
        id: randomUUID(),
        userId,
        appKey,
        oauthClientId: null,
        credentials: {},
        now: T0,
      })
    ).id;

  const ids = (page: { items: readonly { id: string }[] }) => page.items.map((f) => f.id);

  it('stores and reads a flow, and changes only what it is told', async () => {
    const flow = await newFlow(alice, 'Orders');
    expect(flow).toEqual({
      id: flow.id,
      userId: alice,
      folderId: null,
      name: 'Orders',
      active: false,
      publishedAt: null,
      publishedVersion: null,
      hasDraftChanges: true,
      draftRevision: 0,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await fx.repos.flows.findById(flow.id)).toEqual(flow);
    await fx.repos.flows.update(flow.id, { active: true, publishedAt: at(MINUTE) }, at(MINUTE));
    expect(await fx.repos.flows.findById(flow.id)).toEqual({
      ...flow,
      active: true,
      publishedAt: at(MINUTE),
      updatedAt: at(MINUTE),
    });
    await fx.repos.flows.update(flow.id, {}, at(2 * MINUTE));
    expect(await fx.repos.flows.findById(flow.id)).toMatchObject({ name: 'Orders', updatedAt: at(2 * MINUTE) });
    expect(await fx.repos.flows.findById(randomUUID())).toBeNull();
  });

  it('lists flows newest change first, by owner, name, status, folder, app and connection', async () => {
    const folder = await fx.repos.folders.insert({ id: randomUUID(), userId: alice, name: 'F', now: T0 });
    const a = await newFlow(alice, 'Alpha Orders', at(1), folder.id);
    const b = await newFlow(alice, 'beta orders', at(2));
    const c = await newFlow(bob, '50%_off', at(3));
    const connection = await newConnection(alice);
    await fx.repos.steps.insert([
      step(a.id, 1, { appKey: 'webhook' }),
      step(a.id, 2, { appKey: 'smtp', connectionId: connection }),
    ]);
    await fx.repos.steps.insert([step(c.id, 1, { appKey: 'webhook' })]);
    await fx.repos.flows.update(b.id, { active: true }, at(4));

    const list = (filter: Parameters<typeof fx.repos.flows.list>[0], page = PAGE) => fx.repos.flows.list(filter, page);
    expect(ids(await list({ ownerId: null }))).toEqual([b.id, c.id, a.id]);
    expect(ids(await list({ ownerId: alice }))).toEqual([b.id, a.id]);
    expect(ids(await list({ ownerId: null, name: 'ORDERS' }))).toEqual([b.id, a.id]);
    expect(ids(await list({ ownerId: null, name: '%_' }))).toEqual([c.id]);
    expect(ids(await list({ ownerId: null, name: 'a_p' }))).toEqual([]);
    expect(ids(await list({ ownerId: null, active: true }))).toEqual([b.id]);
    expect(ids(await list({ ownerId: null, active: false }))).toEqual([c.id, a.id]);
    expect(ids(await list({ ownerId: null, folderId: folder.id }))).toEqual([a.id]);
    expect(ids(await list({ ownerId: null, folderId: null }))).toEqual([b.id, c.id]);
    expect(ids(await list({ ownerId: null, appKey: 'webhook' }))).toEqual([c.id, a.id]);
    expect(ids(await list({ ownerId: alice, appKey: 'webhook' }))).toEqual([a.id]);
    expect(ids(await list({ ownerId: null, connectionId: connection }))).toEqual([a.id]);
    const second = await list({ ownerId: null }, { page: 2, perPage: 2 });
    expect(second).toMatchObject({ total: 3, page: 2, perPage: 2 });
    expect(ids(second)).toEqual([a.id]);
  });

  it('makes a second unit of work wait while another holds a flow', async () => {
    const flow = await newFlow(alice);
    const gate = () => {
      let open = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { open, opened };
    };
    const firstLocked = gate();
    const release = gate();
    const events: string[] = [];
    const first = fx.uow.run(async (tx) => {
      await tx.flows.lock(flow.id);
      events.push('first locked');
      firstLocked.open();
      await release.opened;
      events.push('first done');
      return ok(undefined);
    });
    await firstLocked.opened;
    const second = fx.uow.run(async (tx) => {
      await tx.flows.lock(flow.id);
      events.push('second locked');
      return ok(undefined);
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    events.push('released');
    release.open();
    await Promise.all([first, second]);
    expect(events).toEqual(['first locked', 'released', 'first done', 'second locked']);
  });

  it('keeps steps in order, with their parameters as stored', async () => {
    const flow = await newFlow(alice);
    const parameters = { text: 'Grüße {{step.x.y}}', list: [{ key: 'k', value: 1 }], nested: { ok: true, no: null } };
    const trigger = step(flow.id, 1, { appKey: 'webhook', key: 'catchRawWebhook', status: 'completed', appVersion: 3 });
    const action = step(flow.id, 2, { parameters, name: 'Second' });
    await fx.repos.steps.insert([action, trigger]);
    const listed = await fx.repos.steps.listByFlow(flow.id);
    expect(listed.map((s) => s.id)).toEqual([trigger.id, action.id]);
    expect(listed[0]).toEqual({
      id: trigger.id,
      flowId: flow.id,
      type: 'trigger',
      appKey: 'webhook',
      key: 'catchRawWebhook',
      name: null,
      position: 1,
      status: 'completed',
      parameters: {},
      connectionId: null,
      appVersion: 3,
      continueOnFailure: false,
      structuralType: 'single',
      parentStepId: null,
      branchConditions: null,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await fx.repos.steps.findById(action.id)).toMatchObject({ parameters, name: 'Second', type: 'action' });

    await fx.repos.steps.update(
      action.id,
      { position: 3, status: 'completed', parameters: { a: 1 }, continueOnFailure: true },
      at(MINUTE),
    );
    expect(await fx.repos.steps.findById(action.id)).toMatchObject({
      position: 3,
      status: 'completed',
      parameters: { a: 1 },
      continueOnFailure: true,
      name: 'Second',
      updatedAt: at(MINUTE),
    });
    const other = await newFlow(bob);
    await fx.repos.steps.insert([step(other.id, 1)]);
    expect((await fx.repos.steps.listByFlows([flow.id, other.id])).map((s) => s.flowId)).toEqual(
      [flow.id, flow.id, other.id].sort((x, y) => (x === y ? 0 : x < y ? -1 : 1)),
    );
    expect(await fx.repos.steps.listByFlows([])).toEqual([]);
    await fx.repos.steps.delete(action.id);
    expect(await fx.repos.steps.findById(action.id)).toBeNull();
  });

  it("keeps where each step sits in the flow's tree, and changes it", async () => {
    const flow = await newFlow(alice);
    const conditions = [{ and: [{ key: '{{step.x.kind}}', operator: 'equal', value: 'Grüße' }] }];
    const paths = step(flow.id, 2, { structuralType: 'paths', appKey: 'branches', key: 'execute' });
    const branch = step(flow.id, 3, { structuralType: 'branch', parentStepId: paths.id, branchConditions: conditions });
    const inside = step(flow.id, 4, { parentStepId: branch.id });
    await fx.repos.steps.insert([step(flow.id, 1), paths, branch, inside]);
    expect(
      (await fx.repos.steps.listByFlow(flow.id)).map((s) => [s.structuralType, s.parentStepId, s.branchConditions]),
    ).toEqual([
      ['single', null, null],
      ['paths', null, null],
      ['branch', paths.id, conditions],
      ['single', branch.id, null],
    ]);
    await fx.repos.steps.update(branch.id, { branchConditions: [] }, at(MINUTE));
    await fx.repos.steps.update(inside.id, { parentStepId: null, position: 5, structuralType: 'loop' }, at(MINUTE));
    expect(await fx.repos.steps.findById(branch.id)).toMatchObject({ branchConditions: [], parentStepId: paths.id });
    expect(await fx.repos.steps.findById(inside.id)).toMatchObject({
      parentStepId: null,
      position: 5,
      structuralType: 'loop',
      branchConditions: null,
    });
    await fx.repos.steps.update(branch.id, { branchConditions: null }, at(MINUTE));
    expect((await fx.repos.steps.findById(branch.id))?.branchConditions).toBeNull();
  });

  it('detaches a connection from its steps, leaving them incomplete', async () => {
    const flow = await newFlow(alice);
    const connection = await newConnection(alice);
    const used = step(flow.id, 2, { connectionId: connection, status: 'completed' });
    const other = step(flow.id, 3, { status: 'completed' });
    await fx.repos.steps.insert([step(flow.id, 1), used, other]);
    expect(await fx.repos.steps.detachConnection(connection, at(MINUTE))).toEqual([flow.id]);
    expect(await fx.repos.steps.findById(used.id)).toMatchObject({ connectionId: null, status: 'incomplete' });
    expect(await fx.repos.steps.findById(other.id)).toMatchObject({ status: 'completed', updatedAt: T0 });
    expect(await fx.repos.steps.detachConnection(connection, at(MINUTE))).toEqual([]);
  });

  it('deletes a flow with its steps, and counts a user’s flows per app', async () => {
    const first = await newFlow(alice);
    const second = await newFlow(alice);
    await fx.repos.steps.insert([
      step(first.id, 1, { appKey: 'webhook' }),
      step(first.id, 2, { appKey: 'smtp' }),
      step(first.id, 3, { appKey: 'smtp' }),
    ]);
    await fx.repos.steps.insert([step(second.id, 1, { appKey: 'webhook' }), step(second.id, 2)]);
    const bobs = await newFlow(bob);
    await fx.repos.steps.insert([step(bobs.id, 1, { appKey: 'github' })]);
    const counts = await fx.repos.flows.countByApp(alice);
    expect([...counts].sort((x, y) => x.appKey.localeCompare(y.appKey))).toEqual([
      { appKey: 'smtp', count: 1 },
      { appKey: 'webhook', count: 2 },
    ]);
    await fx.repos.flows.delete(first.id);
    expect(await fx.repos.flows.findById(first.id)).toBeNull();
    expect(await fx.repos.steps.listByFlow(first.id)).toEqual([]);
    expect(await fx.repos.flows.countByApp(alice)).toEqual([{ appKey: 'webhook', count: 1 }]);
  });

  it('keeps folder names unique per user, and un-files flows when a folder goes', async () => {
    const folder = await fx.repos.folders.insert({ id: randomUUID(), userId: alice, name: 'Sales', now: T0 });
    await fx.repos.folders.insert({ id: randomUUID(), userId: alice, name: 'Archive', now: T0 });
    await fx.repos.folders.insert({ id: randomUUID(), userId: bob, name: 'Sales', now: T0 });
    const taken = await fx.uow.run(async (tx) =>
      ok(await tx.folders.insert({ id: randomUUID(), userId: alice, name: 'Sales', now: T0 })),
    );
    expect(taken).toEqual({ ok: false, error: { code: 'unique.violation', field: 'name' } });
    expect((await fx.repos.folders.listByUser(alice)).map((f) => f.name)).toEqual(['Archive', 'Sales']);

    await fx.repos.folders.rename(folder.id, 'Sales 2027', at(MINUTE));
    expect(await fx.repos.folders.findById(folder.id)).toEqual({
      id: folder.id,
      userId: alice,
      name: 'Sales 2027',
      createdAt: T0,
      updatedAt: at(MINUTE),
    });
    const filed = await newFlow(alice, 'Filed', T0, folder.id);
    await fx.repos.folders.delete(folder.id);
    expect(await fx.repos.folders.findById(folder.id)).toBeNull();
    expect((await fx.repos.flows.findById(filed.id))?.folderId).toBeNull();
  });

  it('keeps each flow’s key in files, unique among its owner’s, and lists the owner’s flows oldest first', async () => {
    const first = await newFlow(alice, 'Orders', T0);
    const second = await newFlow(alice, 'Orders', at(MINUTE));
    await newFlow(bob, 'Orders', T0);
    expect((await fx.repos.flows.listWithFileKeys(alice)).map(({ flow, fileKey }) => [flow.id, fileKey])).toEqual([
      [first.id, null],
      [second.id, null],
    ]);
    // Given the flow's own time, keeping the key is no change of the flow.
    await fx.repos.flows.update(first.id, { fileKey: 'orders' }, first.updatedAt);
    expect((await fx.repos.flows.findById(first.id))?.updatedAt).toEqual(first.updatedAt);
    const taken = await fx.uow.run(async (tx) => ok(await tx.flows.update(second.id, { fileKey: 'orders' }, T0)));
    expect(taken).toMatchObject({ ok: false, error: { code: 'unique.violation' } });
    const [bobs] = await fx.repos.flows.listWithFileKeys(bob);
    await fx.repos.flows.update(bobs?.flow.id as string, { fileKey: 'orders' }, T0);
    expect((await fx.repos.flows.listWithFileKeys(alice)).map(({ fileKey }) => fileKey)).toEqual(['orders', null]);
    expect((await fx.repos.flows.listWithFileKeys(bob)).map(({ fileKey }) => fileKey)).toEqual(['orders']);
  });

  it('stores a template’s document as it was given', async () => {
    const flowData = {
      id: randomUUID(),
      name: 'Doc',
      steps: [
        {
          id: 'a',
          key: 'catchRawWebhook',
          name: null,
          appKey: 'webhook',
          type: 'trigger' as const,
          parameters: { deep: { list: [1, 'two', null] } },
          position: 1,
          webhookPath: '/webhooks/flows/x',
        },
      ],
    };
    const template = await fx.repos.templates.insert({ id: randomUUID(), name: 'Zed', flowData, now: T0 });
    const other = await fx.repos.templates.insert({ id: randomUUID(), name: 'Abc', flowData, now: T0 });
    expect(await fx.repos.templates.findById(template.id)).toEqual(template);
    expect(template.flowData).toEqual(flowData);
    expect((await fx.repos.templates.list()).map((t) => t.name)).toEqual(['Abc', 'Zed']);
    await fx.repos.templates.rename(template.id, 'Renamed', at(MINUTE));
    expect(await fx.repos.templates.findById(template.id)).toMatchObject({ name: 'Renamed', updatedAt: at(MINUTE) });
    expect(await fx.repos.templates.delete(other.id)).toBe(true);
    expect(await fx.repos.templates.delete(other.id)).toBe(false);
  });
});
