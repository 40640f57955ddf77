import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  completeFlow,
  type FlowWorld,
  MANAGE_ALL,
  READ_ALL_MANAGE_OWN,
  startFlowWorld,
} from '../support/flow-fixtures.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(DIALECTS)('flows (%s)', (dialect) => {
  let world: FlowWorld;
  beforeEach(async () => {
    world = await startFlowWorld(dialect);
  });
  afterEach(() => world.close());

  it('creates a draft flow with an empty trigger and an empty action, and shows it', async () => {
    const res = await world.instance.request('POST', '/flows', { token: world.bob.token });
    expect(res.status).toBe(201);
    expect(res.body.meta).toMatchObject({ type: 'Flow', isArray: false });
    const flow = res.body.data;
    expect(flow).toMatchObject({
      name: 'Name your flow',
      active: false,
      status: 'draft',
      folderId: null,
      userId: world.bob.id,
      publishedAt: null,
    });
    expect(flow.steps).toEqual([
      expect.objectContaining({ type: 'trigger', position: 1, status: 'incomplete', appKey: null, key: null }),
      expect.objectContaining({ type: 'action', position: 2, status: 'incomplete', parameters: {} }),
    ]);
    expect(flow.steps[0]).toMatchObject({ flowId: flow.id, connectionId: null, webhookUrl: null, iconUrl: null });
    expect(await world.call('GET', `/flows/${flow.id}`, world.bob.token)).toEqual(flow);
  });

  it('renames a flow and refuses an empty name or unknown keys', async () => {
    const { id } = await world.newFlow(world.bob.token);
    const renamed = await world.call('PATCH', `/flows/${id}`, world.bob.token, { name: '  Orders to notes ' });
    expect(renamed.name).toBe('Orders to notes');
    for (const body of [{ name: '' }, { name: 42 }, { userId: world.bob.id }, { active: true }]) {
      const res = await world.instance.request('PATCH', `/flows/${id}`, { token: world.bob.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.meta.type).toBe('ValidationError');
    }
  });

  it('lists the caller’s flows most recently updated first, filtered and paginated', async () => {
    const names = ['Alpha orders', 'beta ORDERS', 'Gamma', '100%_real'];
    const ids: string[] = [];
    for (const name of names) {
      const { id } = await world.newFlow(world.bob.token);
      await world.call('PATCH', `/flows/${id}`, world.bob.token, { name });
      ids.push(id);
    }
    const list = async (query: string) => {
      const res = await world.instance.request('GET', `/flows${query}`, { token: world.bob.token });
      expect(res.status, query).toBe(200);
      return res.body;
    };
    const all = await list('');
    expect(all.data.map((f: { name: string }) => f.name)).toEqual([...names].reverse());
    expect(all.meta).toEqual({ type: 'Flow', count: 4, isArray: true, currentPage: 1, totalPages: 1 });
    expect(all.data[0].steps).toHaveLength(2);
    expect((await list('?name=orders')).data.map((f: { name: string }) => f.name)).toEqual([
      'beta ORDERS',
      'Alpha orders',
    ]);
    expect((await list('?name=%25_')).data.map((f: { name: string }) => f.name)).toEqual(['100%_real']);
    const paged = await list('?perPage=3&page=2');
    expect(paged.data.map((f: { id: string }) => f.id)).toEqual([ids[0]]);
    expect(paged.meta).toMatchObject({ count: 4, currentPage: 2, totalPages: 2 });
    expect((await list('?status=published')).data).toEqual([]);
    expect((await list('?status=draft')).meta.count).toBe(4);

    // Renaming an old flow moves it to the top.
    await world.call('PATCH', `/flows/${ids[0]}`, world.bob.token, { name: 'Alpha orders again' });
    expect((await list('')).data[0].id).toBe(ids[0]);

    for (const query of ['?status=paused', '?folderId=nope', '?onlyOwnedFlows=yes', '?perPage=101']) {
      expect((await world.instance.request('GET', `/flows${query}`, { token: world.bob.token })).status).toBe(422);
    }
  });

  it('lists by folder, with null for flows in no folder', async () => {
    const inFolder = await world.newFlow(world.bob.token);
    const loose = await world.newFlow(world.bob.token);
    const folder = await world.call('POST', '/folders', world.bob.token, { name: 'Sales' });
    await world.call('PATCH', `/flows/${inFolder.id}/folder`, world.bob.token, { folderId: folder.id });
    const ids = async (query: string) =>
      (await world.call('GET', `/flows${query}`, world.bob.token)).map((f: { id: string }) => f.id);
    expect(await ids(`?folderId=${folder.id}`)).toEqual([inFolder.id]);
    expect(await ids('?folderId=null')).toEqual([loose.id]);
    expect(await ids(`?folderId=${MISSING}`)).toEqual([]);
  });

  it('shows users only their own flows; wider roles see all unless they ask for their own', async () => {
    const bobs = await world.newFlow(world.bob.token);
    const admins = await world.newFlow(world.adminToken);
    const ids = async (token: string, query = '') =>
      (await world.call('GET', `/flows${query}`, token)).map((f: { id: string }) => f.id);
    expect(await ids(world.bob.token)).toEqual([bobs.id]);
    expect(await ids(world.adminToken)).toEqual([admins.id, bobs.id]);
    expect(await ids(world.adminToken, '?onlyOwnedFlows=true')).toEqual([admins.id]);
    const reader = await world.userWith(READ_ALL_MANAGE_OWN);
    expect(await ids(reader.token)).toEqual([admins.id, bobs.id]);
  });

  it('applies the isCreator condition to another user’s flow', async () => {
    const flow = await world.newFlow(world.adminToken);
    const reader = await world.userWith(READ_ALL_MANAGE_OWN);
    const manager = await world.userWith(MANAGE_ALL);
    const attempt = (token: string, method: string, path: string, body?: unknown) =>
      world.instance.request(method, path, { token, ...(body !== undefined && { body }) });

    // The User role's permissions carry isCreator: another user's flow does not exist for them.
    expect((await attempt(world.bob.token, 'GET', `/flows/${flow.id}`)).status).toBe(404);
    expect((await attempt(world.bob.token, 'PATCH', `/flows/${flow.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await attempt(world.bob.token, 'PATCH', `/steps/${flow.actionId}`, { name: 'x' })).status).toBe(404);
    // Reading without condition, managing with: readable but not changeable.
    expect((await attempt(reader.token, 'GET', `/flows/${flow.id}`)).status).toBe(200);
    const forbidden = await attempt(reader.token, 'PATCH', `/flows/${flow.id}`, { name: 'Mine' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.meta.type).toBe('ForbiddenError');
    expect(
      (await attempt(reader.token, 'POST', `/flows/${flow.id}/steps`, { previousStepId: flow.actionId })).status,
    ).toBe(403);
    expect((await attempt(reader.token, 'DELETE', `/steps/${flow.actionId}`)).status).toBe(403);
    // Without the condition: another user's flow is theirs to change too.
    expect((await attempt(manager.token, 'PATCH', `/flows/${flow.id}`, { name: 'Managed' })).status).toBe(200);
    expect(
      (await attempt(manager.token, 'POST', `/flows/${flow.id}/steps`, { previousStepId: flow.actionId })).status,
    ).toBe(201);
    expect((await world.call('GET', `/flows/${flow.id}`, world.adminToken)).name).toBe('Managed');
  });

  it('deletes a flow with its steps', async () => {
    const flow = await world.newFlow(world.bob.token);
    await world.call('DELETE', `/flows/${flow.id}`, world.bob.token);
    expect((await world.instance.request('GET', `/flows/${flow.id}`, { token: world.bob.token })).status).toBe(404);
    expect(
      (await world.instance.request('PATCH', `/steps/${flow.actionId}`, { token: world.bob.token, body: {} })).status,
    ).toBe(404);
    expect((await world.instance.request('DELETE', `/flows/${flow.id}`, { token: world.bob.token })).status).toBe(404);
  });

  it('publishes only a flow with a trigger, an action and every step completed', async () => {
    const flow = await world.newFlow(world.bob.token);
    const status = (active: boolean) =>
      world.instance.request('PATCH', `/flows/${flow.id}/status`, { token: world.bob.token, body: { active } });
    const incomplete = await status(true);
    expect(incomplete.status).toBe(422);
    expect(incomplete.body).toEqual({
      errors: { general: ['All steps must be completed before the flow is published.'] },
      meta: { type: 'IncompleteStepsError' },
    });

    await completeFlow(world, world.bob.token, flow);
    const published = await status(true);
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({
      active: true,
      status: 'published',
      publishedVersion: { number: 1 },
      hasDraftChanges: false,
    });
    expect(published.body.data.publishedAt).toBeGreaterThanOrEqual(published.body.data.createdAt);
    expect((await world.call('GET', '/flows?status=published', world.bob.token)).map((f: any) => f.id)).toEqual([
      flow.id,
    ]);
    // A published flow's steps are its draft: they change, and the published version runs on.
    const edited = await world.instance.request('PATCH', `/steps/${flow.actionId}`, {
      token: world.bob.token,
      body: { name: 'Changed' },
    });
    expect(edited.status).toBe(200);
    expect(await world.call('GET', `/flows/${flow.id}`, world.bob.token)).toMatchObject({
      active: true,
      publishedVersion: { number: 1 },
      hasDraftChanges: true,
    });

    const unpublished = await status(false);
    expect(unpublished.body.data).toMatchObject({ active: false, status: 'draft' });
    await world.call('DELETE', `/steps/${flow.actionId}`, world.bob.token);
    const insufficient = await status(true);
    expect(insufficient.status).toBe(422);
    expect(insufficient.body.meta.type).toBe('InsufficientStepsError');
    expect((await status('yes' as unknown as boolean)).status).toBe(422);
  });

  it('duplicates a flow as “Copy of …”, unpublished, with references following the copied steps', async () => {
    const flow = await world.newFlow(world.bob.token);
    await completeFlow(world, world.bob.token, flow);
    const folder = await world.call('POST', '/folders', world.bob.token, { name: 'Kept' });
    await world.call('PATCH', `/flows/${flow.id}/folder`, world.bob.token, { folderId: folder.id });
    await world.call('PATCH', `/flows/${flow.id}/status`, world.bob.token, { active: true });

    const copy = await world.call('POST', `/flows/${flow.id}/duplicate`, world.bob.token);
    expect(copy).toMatchObject({ name: 'Copy of Name your flow', active: false, userId: world.bob.id });
    expect(copy.folderId).toBe(folder.id);
    expect(copy.id).not.toBe(flow.id);
    const [trigger, action] = copy.steps;
    expect(trigger.id).not.toBe(flow.triggerId);
    expect(action).toMatchObject({ appKey: 'test-notes', key: 'addNote', status: 'completed' });
    expect(action.parameters.title).toBe(`{{step.${trigger.id}.body.title}}`);

    // The administrator's copy keeps Bob's connection (they may read it) but not Bob's folder.
    const adminsCopy = await world.call('POST', `/flows/${flow.id}/duplicate`, world.adminToken);
    expect(adminsCopy).toMatchObject({ userId: expect.not.stringMatching(world.bob.id), folderId: null });
    expect(adminsCopy.steps[1].connectionId).toBe(action.connectionId);
    // Someone who may read all flows but only their own connections gets the copy without it.
    const reader = await world.userWith(READ_ALL_MANAGE_OWN);
    const readersCopy = await world.call('POST', `/flows/${flow.id}/duplicate`, reader.token);
    expect(readersCopy.steps[1]).toMatchObject({ connectionId: null, status: 'incomplete' });
    expect(
      (await world.instance.request('POST', `/flows/${MISSING}/duplicate`, { token: world.bob.token })).status,
    ).toBe(404);
  });

  it('shows and changes the folder of a flow, only into the caller’s own folders', async () => {
    const flow = await world.newFlow(world.bob.token);
    const none = await world.instance.request('GET', `/flows/${flow.id}/folder`, { token: world.bob.token });
    expect(none.status).toBe(404);
    const folder = await world.call('POST', '/folders', world.bob.token, { name: 'Mine' });
    const moved = await world.call('PATCH', `/flows/${flow.id}/folder`, world.bob.token, { folderId: folder.id });
    expect(moved.folderId).toBe(folder.id);
    expect(await world.call('GET', `/flows/${flow.id}/folder`, world.bob.token)).toEqual(folder);

    const adminsFolder = await world.call('POST', '/folders', world.adminToken, { name: 'Admin’s' });
    const foreign = await world.instance.request('PATCH', `/flows/${flow.id}/folder`, {
      token: world.bob.token,
      body: { folderId: adminsFolder.id },
    });
    expect(foreign.status).toBe(404);
    const bad = await world.instance.request('PATCH', `/flows/${flow.id}/folder`, { token: world.bob.token, body: {} });
    expect(bad.status).toBe(422);
    const out = await world.call('PATCH', `/flows/${flow.id}/folder`, world.bob.token, { folderId: null });
    expect(out.folderId).toBeNull();
  });
});
