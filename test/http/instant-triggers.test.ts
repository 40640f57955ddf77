import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually } from '../support/engine-flows.js';
import { type Delivery, type HookVendor, startHookVendor, VENDOR_API_KEY, vendorApp } from '../support/hook-vendor.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { rawExecute } from '../support/raw-sql.js';

describe.each(DIALECTS)('instant triggers (%s)', (dialect) => {
  let vendor: HookVendor;
  let instance: TestInstance;
  let logger: CapturingLogger;
  let token: string;

  beforeAll(async () => {
    vendor = await startHookVendor();
  });
  afterAll(() => vendor.close());

  const start = async (options: { onDisk?: boolean } = {}) => {
    vendor.control.refuseRegistration = null;
    vendor.control.failDeletion = false;
    logger = new CapturingLogger();
    instance = await startTestInstance(
      dialect,
      { ALLOW_PRIVATE_NETWORKS: 'true' },
      { apps: [...builtInApps, vendorApp], logger },
      options,
    );
    token = await installAndSignIn(instance);
  };
  beforeEach(() => start());
  afterEach(() => instance.close());

  const connect = async () => {
    const res = await instance.request('POST', '/apps/test-vendor/connections', {
      token,
      body: { formattedData: { serverUrl: vendor.url, apiKey: VENDOR_API_KEY } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };

  /** A flow from the vendor's events to storing a value; not published. */
  const vendorFlow = async (events = 'order.created') => {
    const connectionId = await connect();
    return buildFlow(
      instance,
      token,
      { appKey: 'test-vendor', key: 'newEvent', parameters: { events }, connectionId },
      [() => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'last', value: 'seen' } })],
    );
  };

  const setActive = (flowId: string, active: boolean) =>
    instance.request('PATCH', `/flows/${flowId}/status`, { token, body: { active } });
  const flow = async (flowId: string) => (await instance.request('GET', `/flows/${flowId}`, { token })).body.data;
  const runs = async (flowId: string): Promise<any[]> =>
    (await instance.request('GET', `/executions?flowId=${flowId}&perPage=100`, { token })).body.data;
  const send = async (delivery: Delivery, method = 'POST') => {
    const res = await instance.conveyor.app.request(delivery.path, {
      method,
      headers: delivery.headers,
      ...(method !== 'GET' && { body: delivery.body }),
    });
    const text = await res.text();
    return {
      status: res.status,
      text,
      json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null,
    };
  };
  /** The hook the vendor holds for this flow's address, if any. */
  const heldFor = (flowId: string) =>
    [...vendor.hooks.values()].find((hook) => hook.url.endsWith(`/webhooks/flows/${flowId}`));
  const hookOf = (flowId: string) => {
    const hook = heldFor(flowId);
    if (!hook) throw new Error(`the vendor holds no hook for flow ${flowId}`);
    return hook;
  };

  it('registers the hook on publish with the flow’s webhook URL; a signed delivery starts a run of its body', async () => {
    const { flowId } = await vendorFlow();
    const before = vendor.registered.length;
    expect(heldFor(flowId)).toBeUndefined();
    const published = await setActive(flowId, true);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data.active).toBe(true);

    expect(vendor.registered.length).toBe(before + 1);
    const hook = hookOf(flowId);
    expect(hook).toMatchObject({ url: (await flow(flowId)).steps[0].webhookUrl, events: 'order.created' });
    expect(hook.url).toBe(`http://conveyor.test/webhooks/flows/${flowId}`);

    const event = { id: 'evt_1', type: 'order.created', amount: 1250 };
    const answer = await send(vendor.deliver(hook, event));
    expect(answer.status).toBe(204);
    const done = await eventually(
      () => runs(flowId),
      (rows) => rows.length === 1 && rows[0].status === 'success',
    );
    const detail = (await instance.request('GET', `/executions/${done[0].id}`, { token })).body.data;
    expect(detail.steps[0].dataOut).toEqual(event);

    // Publishing again what runs already registers nothing more.
    await instance.request('PATCH', `/flows/${flowId}/status`, { token, body: { active: true } });
    expect(vendor.registered.length).toBe(before + 1);
  });

  it('refuses a forged delivery with 401 and starts no run; the log has the reason, not the body', async () => {
    const { flowId } = await vendorFlow();
    expect((await setActive(flowId, true)).status).toBe(200);
    const hook = hookOf(flowId);
    const forged = vendor.deliver(hook, { id: 'evt_forged', marker: 'forged-body-marker' }, 'not-the-secret');
    const answer = await send(forged);
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({
      errors: { general: ['The X-Vendor-Signature header does not match the body.'] },
      meta: { type: 'UnauthenticatedError' },
    });
    // A body changed after signing does not verify either.
    const signed = vendor.deliver(hook, { id: 'evt_2', amount: 1 });
    expect((await send({ ...signed, body: signed.body.replace('1', '9') })).status).toBe(401);
    expect((await send({ ...signed, headers: { 'content-type': 'application/json' } })).status).toBe(401);

    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await runs(flowId)).toEqual([]);
    const refusals = logger.entries.filter((entry) => entry.message === 'webhook delivery refused');
    expect(refusals).toHaveLength(3);
    expect(refusals[0]?.fields).toMatchObject({
      flowId,
      reason: 'The X-Vendor-Signature header does not match the body.',
    });
    expect(logger.text()).not.toContain('forged-body-marker');
  });

  it('answers the vendor’s handshake itself and starts no run', async () => {
    const { flowId } = await vendorFlow();
    expect((await setActive(flowId, true)).status).toBe(200);
    const path = `/webhooks/flows/${flowId}?challenge=ch-4242`;
    const answer = await send({ path, headers: {}, body: '' }, 'GET');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('ch-4242');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await runs(flowId)).toEqual([]);
  });

  it('removes the hook on unpublish and on delete; a delivery after the unpublish is refused', async () => {
    const { flowId } = await vendorFlow();
    expect((await setActive(flowId, true)).status).toBe(200);
    const hook = hookOf(flowId);
    const unpublished = await setActive(flowId, false);
    expect(unpublished.status).toBe(200);
    expect(vendor.deleted).toContain(hook.id);
    expect(vendor.hooks.has(hook.id)).toBe(false);
    expect((await send(vendor.deliver(hook, { id: 'evt_late' }))).status).toBe(401);

    // Published again: a new hook; deleting the flow removes it.
    expect((await setActive(flowId, true)).status).toBe(200);
    const again = hookOf(flowId);
    expect(again.id).not.toBe(hook.id);
    expect((await instance.request('DELETE', `/flows/${flowId}`, { token })).status).toBe(204);
    expect(vendor.deleted).toContain(again.id);
    expect(heldFor(flowId)).toBeUndefined();
  });

  it('swaps the hook when a version with another trigger is published', async () => {
    const { flowId, stepIds } = await vendorFlow('order.created');
    expect((await setActive(flowId, true)).status).toBe(200);
    const first = hookOf(flowId);
    const changed = await instance.request('PATCH', `/steps/${stepIds[0]}`, {
      token,
      body: { parameters: { events: 'order.paid' } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // The draft changed, not what runs: the hook stays until the new version is published.
    expect(vendor.hooks.has(first.id)).toBe(true);
    const published = await instance.request('POST', `/flows/${flowId}/versions`, { token, body: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(201);

    expect(vendor.deleted).toContain(first.id);
    const second = hookOf(flowId);
    expect(second).toMatchObject({ events: 'order.paid' });
    expect((await send(vendor.deliver(first, { id: 'evt_old' }))).status).toBe(401);
    expect((await send(vendor.deliver(second, { id: 'evt_new' }))).status).toBe(204);
    await eventually(
      () => runs(flowId),
      (rows) => rows.length === 1,
    );
  });

  it('fails the publish with the vendor’s reason, secrets masked, when the vendor refuses the hook; the flow stays off', async () => {
    const { flowId } = await vendorFlow();
    vendor.control.refuseRegistration = 'Webhooks are not enabled on this plan.';
    const refused = await setActive(flowId, true);
    expect(refused.status).toBe(422);
    expect(refused.body.meta.type).toBe('AppCallError');
    const [reason] = refused.body.errors.general;
    expect(reason).toContain('Webhooks are not enabled on this plan.');
    expect(reason).not.toContain(VENDOR_API_KEY);
    expect(reason).toContain('[redacted]');
    expect((await flow(flowId)).active).toBe(false);
    expect(heldFor(flowId)).toBeUndefined();
    expect((await send({ path: `/webhooks/flows/${flowId}`, headers: {}, body: '{}' })).status).toBe(401);

    // Through the versions route too; once the vendor takes it, the same publish goes through.
    const viaVersions = await instance.request('POST', `/flows/${flowId}/versions`, { token, body: {} });
    expect(viaVersions.status).toBe(422);
    expect((await flow(flowId)).active).toBe(false);
    vendor.control.refuseRegistration = null;
    expect((await setActive(flowId, true)).status).toBe(200);
    expect((await flow(flowId)).active).toBe(true);
    expect(heldFor(flowId)).toBeDefined();
  });

  it('unpublishes even when the vendor fails to remove the hook, and logs why', async () => {
    const { flowId } = await vendorFlow();
    expect((await setActive(flowId, true)).status).toBe(200);
    const hook = hookOf(flowId);
    vendor.control.failDeletion = true;
    const unpublished = await setActive(flowId, false);
    expect(unpublished.status).toBe(200);
    expect(unpublished.body.data.active).toBe(false);
    expect(vendor.deleted).not.toContain(hook.id);
    expect(logger.entries).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'the vendor did not remove the webhook',
        fields: expect.objectContaining({ flowId }),
      }),
    );
    // The hook is forgotten here: a delivery it still sends is refused.
    expect((await send(vendor.deliver(hook, { id: 'evt_after' }))).status).toBe(401);
  });

  it('mends at start-up what a crash left between a publish or unpublish and the vendor', async () => {
    await instance.close();
    await start({ onDisk: true });
    const setStored = (flowId: string, active: boolean) =>
      rawExecute(
        instance.database.url,
        `update flows set active = ${dialect === 'postgres' ? String(active) : Number(active)} where id = '${flowId}'`,
      );
    // Unpublished, but the process died before the vendor was asked to remove the hook.
    const left = await vendorFlow();
    expect((await setActive(left.flowId, true)).status).toBe(200);
    const leftHook = hookOf(left.flowId);
    await setStored(left.flowId, false);
    // Published, but the process died before the hook was registered.
    const missing = await vendorFlow();
    vendor.control.refuseRegistration = 'Down for maintenance.';
    expect((await setActive(missing.flowId, true)).status).toBe(422);
    vendor.control.refuseRegistration = null;
    await setStored(missing.flowId, true);
    // Deleted, with the same crash.
    const gone = await vendorFlow();
    expect((await setActive(gone.flowId, true)).status).toBe(200);
    const goneHook = hookOf(gone.flowId);
    await rawExecute(instance.database.url, `delete from flows where id = '${gone.flowId}'`);

    await instance.conveyor.useCases.engine.reconcileTriggers();
    expect(vendor.deleted).toEqual(expect.arrayContaining([leftHook.id, goneHook.id]));
    expect(heldFor(left.flowId)).toBeUndefined();
    expect(heldFor(gone.flowId)).toBeUndefined();
    const registered = hookOf(missing.flowId);
    expect((await send(vendor.deliver(registered, { id: 'evt_mended' }))).status).toBe(204);
    // A second pass finds everything as it should be: nothing more is asked of the vendor.
    const asked = vendor.registered.length + vendor.deleted.length;
    await instance.conveyor.useCases.engine.reconcileTriggers();
    expect(vendor.registered.length + vendor.deleted.length).toBe(asked);
  });
});
