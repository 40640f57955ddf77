import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { createMemoryStore, hmacHex, WebhookRefusedError } from '../../adapters/apps/sdk/index.js';
import { stripe } from '../../adapters/apps/stripe/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { expectRetryableRateLimit } from './support/vendor-checks.js';

const KEY = 'sk_test_51Good';

/** Stripe's error answer: `{ error: { message, type } }`. */
const stripeError = (status: number, message: string, type = 'invalid_request_error') =>
  reply(status, { error: { message, type } });

const customers = Array.from({ length: 5 }, (_, i) => ({
  id: `cus_${5 - i}`,
  object: 'customer',
  email: `c${5 - i}@example.com`,
  created: 1_700_000_500 - i * 100,
}));

const charges = [
  { id: 'ch_3', object: 'charge', created: 1_700_000_300, amount: 3000, paid: true },
  { id: 'ch_2', object: 'charge', created: 1_700_000_200, amount: 2000, paid: true },
  { id: 'ch_1', object: 'charge', created: 1_700_000_100, amount: 1000, paid: false },
];

/** Stripe's list: newest first, `limit` per page, `starting_after` to go on, `created[gte]` to filter. */
const list = <T extends { id: string; created: number }>(req: FakeRequest, all: readonly T[], pageSize = 2) => {
  const gte = req.query['created[gte]'];
  const filtered = gte === undefined ? all : all.filter((item) => item.created >= Number(gte));
  const after = req.query.starting_after;
  const start = after ? filtered.findIndex((item) => item.id === after) + 1 : 0;
  const limit = Math.min(Number(req.query.limit ?? 10), pageSize);
  const data = filtered.slice(start, start + limit);
  return { object: 'list', url: req.path, has_more: start + limit < filtered.length, data };
};

const prices = Array.from({ length: 3 }, (_, i) => ({
  id: `price_${i + 1}`,
  created: 1_700_000_000 - i,
  nickname: i === 0 ? 'Pro monthly' : null,
  unit_amount: i === 2 ? 500 : 1500,
  currency: i === 2 ? 'jpy' : 'usd',
  recurring: i === 0 ? { interval: 'month' } : null,
  product: { id: `prod_${i}`, name: `Product ${i + 1}` },
}));

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === `Bearer ${KEY}`,
    unauthorized: stripeError(401, 'Invalid API Key provided: sk_test_****Bad1'),
    rateLimited: reply(
      429,
      { error: { message: 'Too many requests', type: 'rate_limit_error' } },
      { 'retry-after': '1' },
    ),
    routes: {
      'GET /v1/account': () => ({
        id: 'acct_1',
        email: 'owner@example.com',
        settings: { dashboard: { display_name: 'Acme Shop' } },
      }),
      'GET /v1/customers': (req) =>
        req.query.email !== undefined
          ? { object: 'list', has_more: false, data: customers.filter((c) => c.email === req.query.email) }
          : list(req, customers),
      'POST /v1/customers': (req) => ({ id: 'cus_new', object: 'customer', created: 1, ...(req.body as object) }),
      'GET /v1/charges': (req) => list(req, charges),
      'POST /v1/webhook_endpoints': (req) => {
        const form = req.body as Record<string, string>;
        return {
          id: 'we_1',
          object: 'webhook_endpoint',
          url: form.url,
          secret: 'whsec_test_secret',
          status: 'enabled',
        };
      },
      'DELETE /v1/webhook_endpoints/:id': (req) => ({ id: req.params.id, object: 'webhook_endpoint', deleted: true }),
      'GET /v1/payouts': (req) => list(req, [{ id: 'po_1', created: 1_700_000_000, amount: 100 }]),
      'GET /v1/balance_transactions': (req) => list(req, [{ id: 'txn_1', created: 1_700_000_000, amount: 100 }]),
      'POST /v1/refunds': (req) => {
        const body = req.body as Record<string, string>;
        if (body.payment_intent === 'pi_missing') return stripeError(404, "No such payment_intent: 'pi_missing'");
        return { id: 're_1', object: 'refund', status: 'succeeded', ...body };
      },
      'POST /v1/payment_links': () => ({ id: 'plink_1', object: 'payment_link', url: 'https://buy.stripe.com/test_1' }),
      'GET /v1/prices': (req) => list(req, prices),
    },
  });
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({
  auth: { secretKey: KEY },
  baseUrl: vendor.url,
  parameters,
});

describe('stripe: connection', () => {
  it('names the account from /v1/account, or as the user named it', async () => {
    expect(await verifyAppAuth(stripe, { secretKey: KEY }, { baseUrl: vendor.url })).toMatchObject({
      ok: true,
      screenName: 'Acme Shop',
    });
    expect(
      await verifyAppAuth(stripe, { secretKey: KEY, displayName: 'Shop (live)' }, { baseUrl: vendor.url }),
    ).toMatchObject({ ok: true, screenName: 'Shop (live)' });
    expect(vendor.calls('GET /v1/account').at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("refuses a wrong key with Stripe's message, without the key", async () => {
    const refused = await verifyAppAuth(stripe, { secretKey: 'sk_test_51Bad1' }, { baseUrl: vendor.url });
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining('Invalid API Key provided') });
    expect(JSON.stringify(refused)).not.toContain('sk_test_51Bad1');
  });

  it('refuses what is not a Stripe secret key before asking Stripe', async () => {
    const before = vendor.requests.length;
    const refused = await verifyAppAuth(stripe, { secretKey: 'pk_test_123' }, { baseUrl: vendor.url });
    expect(refused).toMatchObject({ ok: false, reason: expect.stringContaining('secretKey') });
    expect(vendor.requests.length).toBe(before);
  });
});

describe('stripe: actions', () => {
  it('creates a customer with a form body, metadata in brackets and an idempotency key', async () => {
    const output = await runAppAction(
      stripe,
      'createCustomer',
      call({ email: 'ann@example.com', name: 'Ann', metadata: [{ key: 'plan', value: 'pro' }] }),
    );
    expect(output).toMatchObject({ id: 'cus_new', email: 'ann@example.com', name: 'Ann', 'metadata[plan]': 'pro' });
    const sent = vendor.calls('POST /v1/customers').at(-1);
    expect(sent?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent?.rawBody).toBe('email=ann%40example.com&name=Ann&metadata%5Bplan%5D=pro');
    expect(sent?.headers['idempotency-key']).toBe('test-execution:stripe.createCustomer');
  });

  it('finds a customer by email, and says when there is none', async () => {
    expect(await runAppAction(stripe, 'findCustomer', call({ email: 'c3@example.com' }))).toMatchObject({
      found: true,
      id: 'cus_3',
    });
    expect(await runAppAction(stripe, 'findCustomer', call({ email: 'nobody@example.com' }))).toEqual({
      found: false,
    });
    expect(vendor.calls('GET /v1/customers').at(-1)?.query).toEqual({ email: 'nobody@example.com', limit: '1' });
  });

  it('refunds part of a payment intent', async () => {
    const refund = await runAppAction(
      stripe,
      'createRefund',
      call({ payment: 'pi_1', amount: 500, reason: 'requested_by_customer' }),
    );
    expect(refund).toMatchObject({ id: 're_1', status: 'succeeded' });
    expect(vendor.calls('POST /v1/refunds').at(-1)?.body).toEqual({
      payment_intent: 'pi_1',
      amount: '500',
      reason: 'requested_by_customer',
    });
  });

  it('refunds a charge by its ID, and refuses what is neither', async () => {
    await runAppAction(stripe, 'createRefund', call({ payment: 'ch_9' }));
    expect(vendor.calls('POST /v1/refunds').at(-1)?.body).toEqual({ charge: 'ch_9' });
    await expect(runAppAction(stripe, 'createRefund', call({ payment: 'cus_1' }))).rejects.toMatchObject({
      name: 'InvalidParametersError',
      fields: { payment: [expect.stringContaining('payment intent')] },
    });
  });

  it("surfaces Stripe's error message", async () => {
    await expect(runAppAction(stripe, 'createRefund', call({ payment: 'pi_missing' }))).rejects.toThrow(
      /answered 404: No such payment_intent: 'pi_missing'/,
    );
  });

  it('creates a payment link for a price', async () => {
    const link = await runAppAction(stripe, 'createPaymentLink', call({ price: 'price_1' }));
    expect(link).toMatchObject({ url: 'https://buy.stripe.com/test_1' });
    expect(vendor.calls('POST /v1/payment_links').at(-1)?.body).toEqual({
      'line_items[0][price]': 'price_1',
      'line_items[0][quantity]': '1',
    });
  });

  it('turns a 429 into a retryable failure, with its Retry-After', () =>
    expectRetryableRateLimit(vendor, () => runAppAction(stripe, 'findCustomer', call({ email: 'c1@example.com' }))));
});

describe('stripe: polling triggers', () => {
  it('hands on new charges newest first, then those created since the poll before last', async () => {
    const store = createMemoryStore();
    const poll = () => runAppTrigger(stripe, 'newCharges', { ...call(), store });
    const lastQuery = () => vendor.calls('GET /v1/charges').at(-1)?.query;
    expect((await poll()).map((item) => item.id)).toEqual(['ch_3', 'ch_2', 'ch_1']);
    expect(lastQuery()).toMatchObject({ limit: '100', starting_after: 'ch_2' });
    expect(lastQuery()).not.toHaveProperty('created[gte]');

    charges.unshift({ id: 'ch_4', object: 'charge', created: 1_700_000_900, amount: 4000, paid: true });
    expect((await poll()).map((item) => item.id)).toEqual(['ch_4', 'ch_3', 'ch_2', 'ch_1']);
    // From the third poll on, only what was created since the newest of the poll before last.
    expect((await poll()).map((item) => item.id)).toEqual(['ch_4', 'ch_3']);
    expect(lastQuery()?.['created[gte]']).toBe('1700000300');
  });

  it('lists new customers, payouts and balance transactions with their ids', async () => {
    const found = await runAppTrigger(stripe, 'newCustomers', call());
    expect(found.map((item) => item.id)).toEqual(['cus_5', 'cus_4', 'cus_3', 'cus_2', 'cus_1']);
    expect(vendor.calls('GET /v1/customers').at(-1)?.query.starting_after).toBe('cus_2');
    expect(await runAppTrigger(stripe, 'newPayouts', call())).toEqual([
      { id: 'po_1', data: { id: 'po_1', created: 1_700_000_000, amount: 100 } },
    ]);
    expect((await runAppTrigger(stripe, 'newBalanceTransactions', call()))[0]?.id).toBe('txn_1');
  });
});

describe('stripe: instant triggers', () => {
  const hook = { id: 'we_1', secret: 'whsec_test_secret' };
  const event = {
    id: 'evt_1',
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { id: 'pi_1', object: 'payment_intent', amount: 2000, currency: 'usd' } },
  };
  const rawBody = JSON.stringify(event);
  /** A delivery as Stripe signs it: HMAC-SHA256 of `<t>.<body>` with the endpoint's secret. */
  const delivery = (signature: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    query: {},
    body: event,
    rawBody,
  });
  const now = () => Math.floor(Date.now() / 1000);
  const signed = (t: number, secret = hook.secret) => `t=${t},v1=${hmacHex('sha256', secret, `${t}.${rawBody}`)}`;

  it('registers a webhook endpoint for the event at the flow address, and removes it', async () => {
    const registered = await registerAppHook(stripe, 'paymentIntentSucceeded', {
      ...call(),
      webhookUrl: 'https://conveyor.test/webhooks/flows/f1',
    });
    expect(registered).toEqual(hook);
    expect(vendor.calls('POST /v1/webhook_endpoints').at(-1)?.body).toEqual({
      url: 'https://conveyor.test/webhooks/flows/f1',
      'enabled_events[0]': 'payment_intent.succeeded',
      description: 'Conveyor: Payment succeeded',
    });
    await unregisterAppHook(stripe, 'paymentIntentSucceeded', {
      ...call(),
      webhookUrl: 'https://conveyor.test/webhooks/flows/f1',
      hook: registered,
    });
    expect(vendor.calls('DELETE /v1/webhook_endpoints/:id').at(-1)?.path).toBe('/v1/webhook_endpoints/we_1');
  });

  it('hands on the payment intent of a signed delivery, with the event id', async () => {
    const items = await runAppTrigger(stripe, 'paymentIntentSucceeded', {
      ...call(),
      hook,
      webhook: delivery(`${signed(now())},v0=ignored`),
    });
    expect(items).toEqual([{ id: 'evt_1', data: event.data.object }]);
  });

  it('refuses a forged, stale or unsigned delivery', async () => {
    for (const signature of [signed(now(), 'whsec_forged'), signed(now() - 600), '']) {
      await expect(
        runAppTrigger(stripe, 'paymentIntentSucceeded', { ...call(), hook, webhook: delivery(signature) }),
      ).rejects.toBeInstanceOf(WebhookRefusedError);
    }
    await expect(
      runAppTrigger(stripe, 'paymentIntentSucceeded', { ...call(), hook: null, webhook: delivery(signed(now())) }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
  });

  it('registers the chosen events of newEvent, and hands on whole events', async () => {
    await registerAppHook(stripe, 'newEvent', {
      ...call({ events: ['invoice.paid', 'customer.created'] }),
      webhookUrl: 'https://conveyor.test/webhooks/flows/f2',
    });
    expect(vendor.calls('POST /v1/webhook_endpoints').at(-1)?.body).toMatchObject({
      'enabled_events[0]': 'invoice.paid',
      'enabled_events[1]': 'customer.created',
    });
    const items = await runAppTrigger(stripe, 'newEvent', {
      ...call({ events: ['*'] }),
      hook,
      webhook: delivery(signed(now())),
    });
    expect(items).toEqual([{ id: 'evt_1', data: event }]);
  });
});

describe('stripe: dynamic data', () => {
  it("lists every page of active prices with their product's name and amount", async () => {
    expect(await loadAppDynamicData(stripe, 'listPrices', call())).toEqual([
      { name: 'Pro monthly (15.00 USD/month)', value: 'price_1' },
      { name: 'Product 2 (15.00 USD)', value: 'price_2' },
      { name: 'Product 3 (500 JPY)', value: 'price_3' },
    ]);
    expect(vendor.calls('GET /v1/prices').map((req) => req.query.starting_after)).toEqual([undefined, 'price_2']);
    expect(vendor.calls('GET /v1/prices')[0]?.query).toMatchObject({ active: 'true', 'expand[]': 'data.product' });
  });
});

describe('stripe: compatibility with Automatisch', () => {
  it('keeps the app key, connection fields and trigger keys', () => {
    expect(stripe.key).toBe('stripe');
    const fields = stripe.manifest.auth.fields.map((field) => field.key);
    expect(fields).toEqual(expect.arrayContaining(['secretKey', 'displayName']));
    const triggers = Object.fromEntries(stripe.manifest.triggers.map((t) => [t.key, t.arguments.map((a) => a.key)]));
    expect(triggers).toMatchObject({ newBalanceTransactions: [], newPayouts: [] });
  });
});
