import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { completeFlow, type FlowWorld, startFlowWorld } from '../support/flow-fixtures.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(DIALECTS)('folders (%s)', (dialect) => {
  let world: FlowWorld;
  afterEach(() => world.close());

  it('keeps each user’s folders apart, by name, with names unique per user', async () => {
    world = await startFlowWorld(dialect);
    const { token } = world.bob;
    const zeta = await world.call('POST', '/folders', token, { name: ' Zeta ' });
    expect(zeta).toEqual({
      id: expect.any(String),
      name: 'Zeta',
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    await world.call('POST', '/folders', token, { name: 'Alpha' });
    await world.call('POST', '/folders', world.adminToken, { name: 'Zeta' });
    const listed = await world.instance.request('GET', '/folders', { token });
    expect(listed.body.data.map((f: { name: string }) => f.name)).toEqual(['Alpha', 'Zeta']);
    expect(listed.body.meta).toEqual({ type: 'Folder', count: 2, isArray: true, currentPage: null, totalPages: null });
    expect((await world.call('GET', '/folders', world.adminToken)).map((f: { name: string }) => f.name)).toEqual([
      'Zeta',
    ]);

    const taken = await world.instance.request('POST', '/folders', { token, body: { name: 'Alpha' } });
    expect(taken.status).toBe(422);
    expect(taken.body).toEqual({
      errors: { name: ["'name' must be unique."] },
      meta: { type: 'UniqueViolationError' },
    });
    for (const body of [{}, { name: '' }, { name: 'x', userId: world.bob.id }]) {
      expect((await world.instance.request('POST', '/folders', { token, body })).status).toBe(422);
    }
  });

  it('renames and deletes only one’s own folder; its flows become uncategorized', async () => {
    world = await startFlowWorld(dialect);
    const { token } = world.bob;
    const folder = await world.call('POST', '/folders', token, { name: 'Sales' });
    const flow = await world.newFlow(token);
    await world.call('PATCH', `/flows/${flow.id}/folder`, token, { folderId: folder.id });

    const renamed = await world.call('PATCH', `/folders/${folder.id}`, token, { name: 'Sales 2027' });
    expect(renamed).toMatchObject({ id: folder.id, name: 'Sales 2027' });
    // Not even an administrator changes someone else's folder.
    for (const [method, body] of [
      ['PATCH', { name: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await world.instance.request(method, `/folders/${folder.id}`, {
        token: world.adminToken,
        ...(body && { body }),
      });
      expect(res.status, method).toBe(404);
    }
    expect((await world.instance.request('PATCH', `/folders/${folder.id}`, { token, body: { name: '' } })).status).toBe(
      422,
    );
    expect((await world.instance.request('PATCH', `/folders/${MISSING}`, { token, body: { name: 'x' } })).status).toBe(
      404,
    );

    await world.call('DELETE', `/folders/${folder.id}`, token);
    expect((await world.call('GET', `/flows/${flow.id}`, token)).folderId).toBeNull();
    expect(await world.call('GET', '/folders', token)).toEqual([]);
    expect((await world.instance.request('DELETE', `/folders/${folder.id}`, { token })).status).toBe(404);
  });

  it('refuses callers without a session or without flow permissions', async () => {
    world = await startFlowWorld(dialect);
    expect((await world.instance.request('GET', '/folders')).status).toBe(401);
    expect((await world.instance.request('POST', '/folders', { body: { name: 'x' } })).status).toBe(401);
    const nobody = await world.userWith([]);
    expect((await world.instance.request('GET', '/folders', { token: nobody.token })).status).toBe(403);
    const res = await world.instance.request('POST', '/folders', { token: nobody.token, body: { name: 'x' } });
    expect(res.status).toBe(403);
    expect(res.body.meta.type).toBe('ForbiddenError');
  });
});

describe.each(DIALECTS)('templates (%s)', (dialect) => {
  let world: FlowWorld;
  afterEach(() => world.close());

  it('lets an administrator keep a flow as a template: its export document, without connections', async () => {
    world = await startFlowWorld(dialect);
    const flow = await world.newFlow(world.bob.token);
    await completeFlow(world, world.bob.token, flow);
    const created = await world.call('POST', '/admin/templates', world.adminToken, { name: 'Orders', flowId: flow.id });
    expect(created).toMatchObject({ name: 'Orders', flowData: { name: 'Name your flow' } });
    const [trigger, action] = created.flowData.steps;
    expect(trigger).toMatchObject({ type: 'trigger', appKey: 'test-webhook', key: 'catchRawWebhook', position: 1 });
    expect(trigger.webhookPath).toBe(`/webhooks/flows/${created.flowData.id}`);
    expect(action.parameters.title).toBe(`{{step.${trigger.id}.body.title}}`);
    expect(trigger.id).not.toBe(flow.triggerId);
    expect(JSON.stringify(created)).not.toMatch(/connectionId|status|userId/);

    expect(await world.call('GET', `/admin/templates/${created.id}`, world.adminToken)).toEqual(created);
    const renamed = await world.call('PATCH', `/admin/templates/${created.id}`, world.adminToken, {
      name: 'Orders v2',
    });
    expect(renamed).toMatchObject({ name: 'Orders v2', flowData: created.flowData });
    const listed = await world.instance.request('GET', '/admin/templates', { token: world.adminToken });
    expect(listed.body.data.map((t: { name: string }) => t.name)).toEqual(['Orders v2']);
    expect(listed.body.meta.type).toBe('Template');

    const bad = await world.instance.request('POST', '/admin/templates', {
      token: world.adminToken,
      body: { name: 'Nothing', flowId: MISSING },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ flowId: ['is not a flow.'] });
    for (const [method, path, body] of [
      ['GET', '/admin/templates', undefined],
      ['GET', `/admin/templates/${created.id}`, undefined],
      ['POST', '/admin/templates', { name: 'Mine', flowId: flow.id }],
      ['PATCH', `/admin/templates/${created.id}`, { name: 'Mine' }],
      ['DELETE', `/admin/templates/${created.id}`, undefined],
    ] as const) {
      const res = await world.instance.request(method, path, { token: world.bob.token, ...(body && { body }) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await world.instance.request(method, path, body ? { body } : {})).status).toBe(401);
    }
    expect(
      (await world.instance.request('PATCH', `/admin/templates/${created.id}`, { token: world.adminToken, body: {} }))
        .status,
    ).toBe(422);

    await world.call('DELETE', `/admin/templates/${created.id}`, world.adminToken);
    expect(
      (await world.instance.request('GET', `/admin/templates/${created.id}`, { token: world.adminToken })).status,
    ).toBe(404);
    expect(
      (await world.instance.request('DELETE', `/admin/templates/${created.id}`, { token: world.adminToken })).status,
    ).toBe(404);
  });

  it('offers templates to users only when enabled, and makes flows from them', async () => {
    world = await startFlowWorld(dialect);
    const source = await world.newFlow(world.adminToken);
    await completeFlow(world, world.adminToken, source);
    const template = await world.call('POST', '/admin/templates', world.adminToken, {
      name: 'Starter',
      flowId: source.id,
    });

    const disabled = await world.instance.request('GET', '/templates', { token: world.bob.token });
    expect(disabled.status).toBe(403);
    expect(disabled.body.meta.type).toBe('ForbiddenError');
    const notYet = await world.instance.request('POST', `/flows?templateId=${template.id}`, { token: world.bob.token });
    expect(notYet.status).toBe(403);

    await world.call('PATCH', '/admin/config', world.adminToken, { enableTemplates: true });
    const offered = await world.call('GET', '/templates', world.bob.token);
    expect(offered.map((t: { id: string }) => t.id)).toEqual([template.id]);
    const flow = await world.call('POST', `/flows?templateId=${template.id}`, world.bob.token);
    expect(flow).toMatchObject({ name: 'Starter', userId: world.bob.id, active: false });
    const [trigger, action] = flow.steps;
    expect(trigger).toMatchObject({ appKey: 'test-webhook', status: 'completed' });
    // The administrator's connection does not come along: Bob chooses his own.
    expect(action).toMatchObject({ appKey: 'test-notes', key: 'addNote', connectionId: null, status: 'incomplete' });
    expect(action.parameters.title).toBe(`{{step.${trigger.id}.body.title}}`);

    const unknown = await world.instance.request('POST', `/flows?templateId=${MISSING}`, { token: world.bob.token });
    expect(unknown.status).toBe(404);
    expect((await world.instance.request('POST', '/flows?templateId=nope', { token: world.bob.token })).status).toBe(
      422,
    );
    expect((await world.instance.request('GET', '/templates')).status).toBe(401);
  });

  it('needs an enterprise licence', async () => {
    world = await startFlowWorld(dialect, { LICENSE_KEY: '', LICENSE_PUBLIC_KEY: '' });
    const flow = await world.newFlow(world.bob.token);
    // The configuration route is an enterprise one too: switch templates on through the core.
    const { useCases } = world.instance.conveyor;
    const admin = await useCases.authenticate({ kind: 'access-token', token: world.adminToken });
    if (!admin) throw new Error('the administrator did not authenticate');
    await useCases.updateInstanceConfig(admin, { enableTemplates: true });
    for (const [method, path, token] of [
      ['GET', '/templates', world.bob.token],
      ['GET', '/admin/templates', world.adminToken],
      ['POST', '/admin/templates', world.adminToken],
    ] as const) {
      const body = method === 'POST' ? { name: 'x', flowId: flow.id } : undefined;
      const res = await world.instance.request(method, path, { token, ...(body && { body }) });
      expect(res.status, path).toBe(403);
      expect(res.body.meta.type).toBe('EnterpriseLicenseRequiredError');
    }
    const fromTemplate = await world.instance.request('POST', `/flows?templateId=${MISSING}`, {
      token: world.bob.token,
    });
    expect(fromTemplate.body.meta.type).toBe('EnterpriseLicenseRequiredError');
  });
});
