import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QUOTA_CACHE_MS } from '../../core/application/billing/plan-and-usage.js';
import {
  billingEnv,
  type PaddleEvent,
  PRO,
  paddleSignature,
  STARTER,
  subscriptionEvent,
  transactionEvent,
} from '../support/billing.js';
import { ShiftedClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

const DAY = 24 * 60 * 60_000;

describe.each(DIALECTS)('billing (%s)', (dialect) => {
  let instance: TestInstance;
  let clock: ShiftedClock;
  let token: string;
  let userId: string;
  beforeEach(async () => {
    clock = new ShiftedClock();
    instance = await startTestInstance(dialect, billingEnv(2), { clock });
    token = await installAndSignIn(instance);
    userId = (await instance.request('GET', '/users/me', { token })).body.data.id;
  });
  afterEach(() => instance.close());

  /** Delivers an event as Paddle does: the raw JSON, signed with the shared secret at `signedAt`. */
  const deliver = (
    event: PaddleEvent | string,
    { signedAt = clock.now(), signature }: { signedAt?: Date; signature?: string } = {},
  ) => {
    const body = typeof event === 'string' ? event : JSON.stringify(event);
    return instance.request('POST', '/billing/webhooks', {
      body,
      headers: { 'paddle-signature': signature ?? paddleSignature(body, { at: signedAt }) },
    });
  };
  const get = async (path: string) => instance.request('GET', path, { token });
  const period = () => ({
    start: new Date(clock.now().getTime() - DAY),
    end: new Date(clock.now().getTime() + 29 * DAY),
  });

  it('lists the plans on sale', async () => {
    const res = await get('/payment/plans');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([STARTER, PRO]);
  });

  it('builds the subscription and invoices from a signed event sequence', async () => {
    expect((await get(`/users/${userId}/subscription`)).status).toBe(404);
    expect((await get(`/users/${userId}/plan-and-usage`)).body.data.plan).toEqual({
      id: 'free',
      name: 'Free',
      limit: 2,
    });

    const paid = period();
    const created = subscriptionEvent('subscription.created', {
      id: 'sub_01',
      userId,
      status: 'active',
      priceId: STARTER.id,
      period: paid,
      occurredAt: clock.now(),
    });
    expect((await deliver(created)).status).toBe(204);
    const invoice = transactionEvent('transaction.completed', {
      id: 'txn_01',
      userId,
      subscriptionId: 'sub_01',
      status: 'completed',
      total: '1000',
      number: '2026-0001',
      period: paid,
      occurredAt: clock.now(),
    });
    expect((await deliver(invoice)).status).toBe(204);

    const subscription = await get(`/users/${userId}/subscription`);
    expect(subscription.status).toBe(200);
    expect(subscription.body.data).toMatchObject({
      id: 'sub_01',
      userId,
      planId: STARTER.id,
      status: 'active',
      currentPeriod: { start: paid.start.getTime(), end: paid.end.getTime() },
      nextBillAt: paid.end.getTime(),
      cancelUrl: 'https://buyer.paddle.test/subscriptions/sub_01/cancel',
    });
    const usage = (await get(`/users/${userId}/plan-and-usage`)).body.data;
    expect(usage).toEqual({
      plan: { id: STARTER.id, name: STARTER.name, limit: STARTER.quota },
      usage: { task: 0, periodStart: paid.start.getTime(), periodEnd: paid.end.getTime() },
    });
    const invoices = await get('/users/invoices');
    expect(invoices.body.meta).toMatchObject({ type: 'Invoice', count: 1 });
    expect(invoices.body.data[0]).toMatchObject({
      id: 'txn_01',
      subscriptionId: 'sub_01',
      status: 'completed',
      number: '2026-0001',
      total: '1000',
      currency: 'EUR',
      period: { start: paid.start.getTime(), end: paid.end.getTime() },
    });

    // A later event wins; an older one arriving after it changes nothing (Paddle does not promise order).
    clock.advance(60_000);
    const upgraded = subscriptionEvent('subscription.updated', {
      id: 'sub_01',
      status: 'active',
      priceId: PRO.id,
      period: paid,
      occurredAt: clock.now(),
    });
    const stale = subscriptionEvent('subscription.updated', {
      id: 'sub_01',
      status: 'past_due',
      priceId: STARTER.id,
      period: paid,
      occurredAt: new Date(clock.now().getTime() - 30_000),
    });
    expect((await deliver(upgraded)).status).toBe(204);
    expect((await deliver(stale)).status).toBe(204);
    expect((await get(`/users/${userId}/subscription`)).body.data).toMatchObject({ planId: PRO.id, status: 'active' });

    // The provider's retry of a delivered event is acknowledged and not applied twice.
    expect((await deliver(invoice)).status).toBe(204);
    expect((await get('/users/invoices')).body.meta.count).toBe(1);

    // Cancelled: no subscription, and the free plan again.
    clock.advance(60_000);
    const canceled = subscriptionEvent('subscription.canceled', {
      id: 'sub_01',
      status: 'canceled',
      priceId: PRO.id,
      period: null,
      occurredAt: clock.now(),
    });
    expect((await deliver(canceled)).status).toBe(204);
    expect((await get(`/users/${userId}/subscription`)).status).toBe(404);
    expect((await get(`/users/${userId}/plan-and-usage`)).body.data.plan.id).toBe('free');
  });

  it('refuses forged, tampered, unsigned and replayed deliveries, and changes nothing for them', async () => {
    const event = subscriptionEvent('subscription.created', {
      id: 'sub_forged',
      userId,
      status: 'active',
      priceId: PRO.id,
      period: period(),
    });
    const body = JSON.stringify(event);
    const refusals = [
      // Signed with another secret.
      await deliver(body, { signature: paddleSignature(body, { at: clock.now(), secret: 'not-the-shared-secret!!' }) }),
      // Signed, then changed.
      await deliver(body.replace(PRO.id, STARTER.id), { signature: paddleSignature(body, { at: clock.now() }) }),
      // No signature, or not one.
      await instance.request('POST', '/billing/webhooks', { body }),
      await deliver(body, { signature: 'ts=123;h1=zz' }),
      // A genuine delivery captured and replayed later (or signed in the future).
      await deliver(body, { signedAt: new Date(clock.now().getTime() - 10 * 60_000) }),
      await deliver(body, { signedAt: new Date(clock.now().getTime() + 10 * 60_000) }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(401);
      expect(res.body.meta.type).toBe('UnauthenticatedError');
    }
    expect((await get(`/users/${userId}/subscription`)).status).toBe(404);

    // Signed but not an event: 422, so the provider shows the failure.
    const garbage = await deliver('{"hello":"world"}');
    expect(garbage.status).toBe(422);
    expect(garbage.body.meta.type).toBe('ValidationError');
    // The same event, honestly signed, goes in.
    expect((await deliver(body)).status).toBe(204);
    expect((await get(`/users/${userId}/subscription`)).status).toBe(200);
  });

  it('pauses a user’s flows over quota: webhooks 422, schedules skip, until a plan allows more', async () => {
    const { flowId, call } = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: 'formatter', key: 'text', parameters: { transform: 'uppercase', input: 'x' } }),
      () => ({ appKey: 'formatter', key: 'text', parameters: { transform: 'lowercase', input: 'Y' } }),
    ]);
    const scheduled = await buildFlow(instance, token, { appKey: 'scheduler', key: 'everyHour', parameters: {} }, [
      () => ({ appKey: 'formatter', key: 'text', parameters: { transform: 'uppercase', input: 'z' } }),
    ]);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await call('PATCH', `/flows/${scheduled.flowId}/status`, { active: true });
    const hook = () => instance.conveyor.app.request(`/webhooks/flows/${flowId}`, { method: 'POST' });
    const runs = async (id: string): Promise<any[]> =>
      (await get(`/executions?flowId=${id}&perPage=100`)).body.data.filter((r: { testRun: boolean }) => !r.testRun);

    // The free plan has 2 tasks: one run of two actions uses them all.
    expect((await hook()).status).toBe(204);
    await eventually(
      () => runs(flowId),
      (list) => list.length === 1 && list[0].status === 'success',
    );
    expect((await get(`/users/${userId}/plan-and-usage`)).body.data.usage.task).toBe(2);
    clock.advance(QUOTA_CACHE_MS + 1);

    const refused = await hook();
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ meta: { type: 'QuotaExceededError' } });
    expect((await get(`/flows/${flowId}`)).body.data.status).toBe('paused');
    const listed = (await get('/flows')).body.data.map((f: { status: string }) => f.status);
    expect(listed).toEqual(['paused', 'paused']);
    await instance.conveyor.useCases.fireTrigger(scheduled.flowId);
    expect(await runs(scheduled.flowId)).toEqual([]);
    expect(await runs(flowId)).toHaveLength(1);

    // Buying a plan lifts the pause at once (the event clears the cached verdict).
    const bought = subscriptionEvent('subscription.created', {
      id: 'sub_pro',
      userId,
      status: 'active',
      priceId: PRO.id,
      period: period(),
    });
    expect((await deliver(bought)).status).toBe(204);
    expect((await get(`/flows/${flowId}`)).body.data.status).toBe('published');
    expect((await hook()).status).toBe(204);
    await instance.conveyor.useCases.fireTrigger(scheduled.flowId);
    await eventually(
      () => runs(scheduled.flowId),
      (list) => list.length === 1 && list[0].status === 'success',
    );
  });
});
