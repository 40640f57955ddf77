import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { NOTES_CREDENTIALS } from '../support/flow-apps.js';
import { completeFlow, type FlowWorld, READ_ALL_MANAGE_OWN, startFlowWorld } from '../support/flow-fixtures.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(DIALECTS)('steps (%s)', (dialect) => {
  let world: FlowWorld;
  let token: string;
  beforeEach(async () => {
    world = await startFlowWorld(dialect, { WEBHOOK_URL: 'https://hooks.example.com' });
    token = world.bob.token;
  });
  afterEach(() => world.close());

  const request = (method: string, path: string, body?: unknown) =>
    world.instance.request(method, path, { token, ...(body !== undefined && { body }) });
  const positions = async (flowId: string) =>
    (await world.call('GET', `/flows/${flowId}`, token)).steps.map((s: { id: string; position: number }) => [
      s.id,
      s.position,
    ]);

  it('adds an empty action after a given step, moving the later ones down', async () => {
    const flow = await world.newFlow(token);
    const added = await world.call('POST', `/flows/${flow.id}/steps`, token, { previousStepId: flow.triggerId });
    expect(added).toMatchObject({ flowId: flow.id, type: 'action', position: 2, status: 'incomplete', appKey: null });
    const last = await world.call('POST', `/flows/${flow.id}/steps`, token, { previousStepId: flow.actionId });
    expect(await positions(flow.id)).toEqual([
      [flow.triggerId, 1],
      [added.id, 2],
      [flow.actionId, 3],
      [last.id, 4],
    ]);

    const other = await world.newFlow(token);
    const foreignStep = await request('POST', `/flows/${flow.id}/steps`, { previousStepId: other.actionId });
    expect(foreignStep.status).toBe(422);
    expect(foreignStep.body.errors).toEqual({ previousStepId: ['is not a step of this flow.'] });
    expect((await request('POST', `/flows/${flow.id}/steps`, {})).status).toBe(422);
    expect((await request('POST', `/flows/${MISSING}/steps`, { previousStepId: flow.actionId })).status).toBe(404);
  });

  it('keeps positions distinct when steps are added and removed at the same time', async () => {
    const flow = await world.newFlow(token);
    const added = await Promise.all(
      Array.from({ length: 6 }, () =>
        world.call('POST', `/flows/${flow.id}/steps`, token, { previousStepId: flow.triggerId }),
      ),
    );
    await Promise.all(added.slice(0, 3).map((step) => world.call('DELETE', `/steps/${step.id}`, token)));
    const placed = (await positions(flow.id)).map(([, position]: [string, number]) => position);
    expect(placed).toEqual([1, 2, 3, 4, 5]);
  });

  it('builds a webhook trigger: completed at once, with its webhook URL and icon', async () => {
    const flow = await world.newFlow(token);
    const trigger = await world.call('PATCH', `/steps/${flow.triggerId}`, token, {
      appKey: 'test-webhook',
      key: 'catchRawWebhook',
      name: 'Incoming order',
    });
    expect(trigger).toMatchObject({
      appKey: 'test-webhook',
      key: 'catchRawWebhook',
      name: 'Incoming order',
      status: 'completed',
      appVersion: 3,
      iconUrl: '/apps/test-webhook/assets/favicon.svg',
      webhookUrl: `https://hooks.example.com/webhooks/flows/${flow.id}`,
    });
    const sync = await world.call('PATCH', `/steps/${flow.triggerId}`, token, {
      parameters: { workSynchronously: true },
    });
    expect(sync.webhookUrl).toBe(`https://hooks.example.com/webhooks/flows/${flow.id}/sync`);
    expect(sync.status).toBe('completed');
    const invalid = await world.call('PATCH', `/steps/${flow.triggerId}`, token, {
      parameters: { workSynchronously: 'sometimes' },
    });
    expect(invalid.status).toBe('incomplete');
  });

  it('checks the app, the key and the connection against the catalogue and the caller', async () => {
    const { actionId, triggerId } = await world.newFlow(token);
    const refused = async (body: unknown, status = 422) => {
      const res = await request('PATCH', `/steps/${actionId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      return res.body;
    };
    expect((await refused({ appKey: 'no-such-app' })).errors).toEqual({ appKey: ['is not a known app.'] });
    expect((await refused({ appKey: 'test-webhook', key: 'catchRawWebhook' })).errors).toEqual({
      key: ['is not a action of test-webhook.'],
    });
    expect((await request('PATCH', `/steps/${triggerId}`, { appKey: 'test-notes', key: 'addNote' })).status).toBe(422);
    expect((await refused({ key: 'addNote' })).errors).toEqual({ appKey: ['is required with a key.'] });
    expect((await refused({ parameters: [1, 2] })).meta.type).toBe('ValidationError');
    expect((await refused({ flowId: MISSING })).meta.type).toBe('ValidationError');

    const postgres = await world.call('POST', '/apps/postgresql/connections', token, {
      formattedData: { host: '127.0.0.1', port: 1, database: 'd', user: 'u', password: 'p', ssl: false },
    });
    const wrongApp = await refused({ appKey: 'test-notes', key: 'addNote', connectionId: postgres.id });
    expect(wrongApp.errors).toEqual({ connectionId: ['belongs to another app.'] });
    const noConnections = await refused({ appKey: 'test-webhook', key: 'respondWith', connectionId: postgres.id });
    expect(noConnections.errors).toEqual({ connectionId: ["is not used by this step's app."] });
    const adminsConnection = await world.newNotesConnection(world.adminToken);
    await refused({ appKey: 'test-notes', key: 'addNote', connectionId: adminsConnection }, 404);
    await refused({ appKey: 'test-notes', connectionId: MISSING }, 404);
  });

  it('re-checks a step on every change; a reference to an earlier step counts as given', async () => {
    const flow = await world.newFlow(token);
    const step = (body: unknown) => world.call('PATCH', `/steps/${flow.actionId}`, token, body);
    const connectionId = await world.newNotesConnection(token);
    expect((await step({ appKey: 'test-notes', key: 'addNote' })).status).toBe('incomplete');
    expect((await step({ connectionId })).status).toBe('incomplete');
    expect((await step({ parameters: { title: 'A note', copies: 2 } })).status).toBe('completed');
    expect((await step({ parameters: { title: 'A note', copies: 'two' } })).status).toBe('incomplete');
    const referring = await step({
      parameters: { title: `{{step.${flow.triggerId}.body.title}}`, copies: `{{step.${flow.triggerId}.body.n}}` },
    });
    expect(referring).toMatchObject({ status: 'completed', appVersion: 2, connectionId });
    expect((await step({ name: 'Renamed only' })).status).toBe('completed');
    expect((await step({ connectionId: null })).status).toBe('incomplete');

    // Another app drops what belonged to the old one; another key drops the parameters.
    await step({ connectionId, parameters: { title: 'kept' } });
    const moved = await step({ appKey: 'test-webhook', key: 'respondWith' });
    expect(moved).toMatchObject({ connectionId: null, parameters: {}, status: 'incomplete', appVersion: 3 });
    const rekeyed = await step({ appKey: 'test-notes', key: 'custom', connectionId, parameters: { kind: 'memo' } });
    expect(rekeyed.status).toBe('completed');
    expect((await step({ key: 'addNote' })).parameters).toEqual({});
    const cleared = await step({ appKey: null });
    expect(cleared).toMatchObject({ appKey: null, key: null, appVersion: null, status: 'incomplete' });
  });

  it('reads an empty key as no event chosen yet, as Automatisch’s client sends it on every app choice', async () => {
    const flow = await world.newFlow(token);
    const connectionId = await world.newNotesConnection(token);
    await world.call('PATCH', `/steps/${flow.actionId}`, token, { appKey: 'test-notes', key: 'addNote', connectionId });
    // What the client's app picker sends: the new app, an empty key, no connection, no parameters.
    const chosen = await request('PATCH', `/steps/${flow.actionId}`, {
      appKey: 'test-webhook',
      key: '',
      connectionId: null,
      parameters: {},
      name: 'Respond',
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data).toMatchObject({ appKey: 'test-webhook', key: null, status: 'incomplete' });
    expect((await request('PATCH', `/steps/${flow.actionId}`, { key: 'x'.repeat(101) })).status).toBe(422);
  });

  it('deletes actions, closing up the positions, but never the trigger', async () => {
    const flow = await world.newFlow(token);
    const second = await world.call('POST', `/flows/${flow.id}/steps`, token, { previousStepId: flow.actionId });
    const third = await world.call('POST', `/flows/${flow.id}/steps`, token, { previousStepId: second.id });
    await world.call('DELETE', `/steps/${flow.actionId}`, token);
    expect(await positions(flow.id)).toEqual([
      [flow.triggerId, 1],
      [second.id, 2],
      [third.id, 3],
    ]);
    const trigger = await request('DELETE', `/steps/${flow.triggerId}`);
    expect(trigger.status).toBe(422);
    expect(trigger.body.meta.type).toBe('TriggerDeletionError');
    expect((await request('DELETE', `/steps/${flow.actionId}`)).status).toBe(404);
    expect((await request('DELETE', '/steps/not-a-uuid')).status).toBe(404);
  });

  it('lists the previous steps and shows the step’s connection, without its credentials', async () => {
    const flow = await world.newFlow(token);
    await completeFlow(world, token, flow);
    const later = await world.call('POST', `/flows/${flow.id}/steps`, token, { previousStepId: flow.actionId });
    const previous = await world.call('GET', `/steps/${later.id}/previous-steps`, token);
    expect(previous.map((s: { id: string }) => s.id)).toEqual([flow.triggerId, flow.actionId]);
    expect(previous[0]).toMatchObject({ appKey: 'test-webhook', lastExecutionStep: null });
    expect(await world.call('GET', `/steps/${flow.triggerId}/previous-steps`, token)).toEqual([]);

    const connection = await world.call('GET', `/steps/${flow.actionId}/connection`, token);
    expect(connection).toMatchObject({ key: 'test-notes', verified: false });
    expect(JSON.stringify(connection)).not.toContain(NOTES_CREDENTIALS.apiKey);
    expect((await request('GET', `/steps/${flow.triggerId}/connection`)).status).toBe(404);
    expect((await request('GET', `/steps/${MISSING}/connection`)).status).toBe(404);
  });

  it('shows the previous steps’ sample output only to those who may read the flow’s executions', async () => {
    const flow = await world.newFlow(token);
    await completeFlow(world, token, flow);
    const later = await world.call('POST', `/flows/${flow.id}/steps`, token, { previousStepId: flow.actionId });
    const sent = await world.instance.conveyor.app.request(`/webhooks/flows/${flow.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'a secret order' }),
    });
    expect(sent.status).toBe(204);
    const flowReader = await world.userWith(READ_ALL_MANAGE_OWN);
    const runReader = await world.userWith([
      { action: 'read', subject: 'Flow', conditions: [] },
      { action: 'read', subject: 'Execution', conditions: [] },
    ]);
    const samples = async (reader: string) =>
      (await world.call('GET', `/steps/${later.id}/previous-steps`, reader)).map(
        (s: { lastExecutionStep: { dataOut: unknown } | null }) => s.lastExecutionStep?.dataOut ?? null,
      );

    for (const reader of [token, runReader.token, world.adminToken]) {
      expect((await samples(reader))[0]).toMatchObject({ body: { title: 'a secret order' } });
    }
    const withheld = await world.call('GET', `/steps/${later.id}/previous-steps`, flowReader.token);
    expect(withheld.map((s: { id: string }) => s.id)).toEqual([flow.triggerId, flow.actionId]);
    expect(withheld.map((s: { lastExecutionStep: unknown }) => s.lastExecutionStep)).toEqual([null, null]);
    expect(JSON.stringify(withheld)).not.toContain('a secret order');
  });

  it('runs the app’s dynamic data and fields with the step’s connection', async () => {
    const flow = await world.newFlow(token);
    const noApp = await request('POST', `/steps/${flow.actionId}/dynamic-data`, { dynamicDataKey: 'listShelves' });
    expect(noApp.status).toBe(422);
    await completeFlow(world, token, flow);
    const data = await request('POST', `/steps/${flow.actionId}/dynamic-data`, { dynamicDataKey: 'listShelves' });
    expect(data.status).toBe(200);
    expect(data.body.data).toEqual([
      { name: "Nora's top shelf", value: 'top' },
      { name: "Nora's bottom shelf", value: 'bottom' },
    ]);
    for (const dynamicDataKey of ['listMoons', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const unknown = await request('POST', `/steps/${flow.actionId}/dynamic-data`, { dynamicDataKey });
      expect(unknown.status, dynamicDataKey).toBe(422);
      expect(unknown.body.errors).toEqual({ dynamicDataKey: ['is not known to test-notes.'] });
      expect(JSON.stringify(unknown.body)).not.toContain(NOTES_CREDENTIALS.apiKey);
    }
    const failed = await request('POST', `/steps/${flow.actionId}/dynamic-data`, {
      dynamicDataKey: 'listShelves',
      parameters: { fail: true },
    });
    expect(failed.status).toBe(422);
    expect(failed.body.meta.type).toBe('AppCallError');
    expect(JSON.stringify(failed.body)).not.toContain(NOTES_CREDENTIALS.apiKey);
    expect((await request('POST', `/steps/${flow.actionId}/dynamic-data`, {})).status).toBe(422);

    const fields = await request('POST', `/steps/${flow.actionId}/dynamic-fields`, {
      dynamicFieldsKey: 'noteFields',
      parameters: { kind: 'memo' },
    });
    expect(fields.status).toBe(200);
    expect(fields.body.data).toEqual([{ key: 'colour', label: 'Colour of a memo', type: 'string', required: false }]);
    const noFields = await request('POST', `/steps/${flow.actionId}/dynamic-fields`, { dynamicFieldsKey: 'x' });
    expect(noFields.status).toBe(422);
  });

  it('detaches a deleted connection from its steps, which become incomplete', async () => {
    const flow = await world.newFlow(token);
    const action = await completeFlow(world, token, flow);
    expect(action.status).toBe('completed');
    const using = await world.call('GET', `/connections/${action.connectionId}/flows`, token);
    expect(using.map((f: { id: string }) => f.id)).toEqual([flow.id]);
    await world.call('DELETE', `/connections/${action.connectionId}`, token);
    const after = await world.call('GET', `/flows/${flow.id}`, token);
    expect(after.steps[1]).toMatchObject({ connectionId: null, status: 'incomplete' });
  });

  it('lists the flows of an app and counts them among the user’s apps', async () => {
    const flow = await world.newFlow(token);
    await completeFlow(world, token, flow);
    await world.newFlow(token);
    const ofApp = await world.instance.request('GET', '/apps/test-webhook/flows', { token });
    expect(ofApp.body.data.map((f: { id: string }) => f.id)).toEqual([flow.id]);
    expect(ofApp.body.meta).toMatchObject({ type: 'Flow', count: 1, currentPage: 1, totalPages: 1 });
    expect(await world.call('GET', '/apps/smtp/flows', token)).toEqual([]);
    expect((await request('GET', '/apps/no-such-app/flows')).status).toBe(404);
    // The administrator sees Bob's flow among an app's flows; Bob does not see the administrator's.
    expect((await world.call('GET', '/apps/test-webhook/flows', world.adminToken)).length).toBe(1);

    const apps = await world.call('GET', `/users/${world.bob.id}/apps`, token);
    expect(apps).toEqual([
      expect.objectContaining({ key: 'test-notes', connectionCount: 1, flowCount: 1 }),
      expect.objectContaining({ key: 'test-webhook', connectionCount: 0, flowCount: 1 }),
    ]);
  });
});
