import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { basicHeader, createMemoryStore, hmacBase64, WebhookRefusedError } from '../../adapters/apps/sdk/index.js';
import { woocommerce } from '../../adapters/apps/woocommerce/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { expectRetryableRateLimit } from './support/vendor-checks.js';

const KEY = 'ck_good';
const SECRET = 'cs_good';
const API = '/wp-json/wc/v3';

/** WooCommerce's (WordPress's) error answer. */
const wcError = (status: number, code: string, message: string) => reply(status, { code, message, data: { status } });

const minute = 60_000;
const T0 = Date.UTC(2026, 10, 1, 12, 0);
/** WooCommerce's `*_gmt` dates: ISO 8601 without a zone. */
const gmt = (ms: number) => new Date(ms).toISOString().slice(0, 19);

const orders = [3, 2, 1].map((n) => ({
  id: n,
  number: String(n),
  status: 'processing',
  date_created_gmt: gmt(T0 + n * minute),
}));
const customers = Array.from({ length: 130 }, (_, i) => {
  const id = 130 - i;
  return { id, email: `c${id}@example.com`, date_created_gmt: gmt(T0 + id * minute) };
});
const categories = Array.from({ length: 150 }, (_, i) => ({
  id: i + 1,
  name: `Category ${String(i + 1).padStart(3, '0')}`,
}));

/** WordPress's numbered pages: `page`, `per_page` (at most 100). */
const paged = <T>(req: FakeRequest, all: readonly T[]) => {
  const perPage = Math.min(Number(req.query.per_page ?? 10), 100);
  const page = Number(req.query.page ?? 1);
  return reply(200, all.slice((page - 1) * perPage, page * perPage), {
    'x-wp-total': String(all.length),
    'x-wp-totalpages': String(Math.ceil(all.length / perPage)),
  });
};

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.path === '/wp-json' || req.headers.authorization === basicHeader(KEY, SECRET).authorization,
    unauthorized: wcError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.'),
    routes: {
      'GET /wp-json': () => ({ name: 'Acme Goods', url: 'https://shop.example.com' }),
      [`GET ${API}/settings/general`]: () => [{ id: 'woocommerce_store_city', value: 'Lyon' }],
      [`GET ${API}/orders`]: (req) => {
        const after = req.query.after;
        const gmtDates = req.query.dates_are_gmt === 'true';
        const matching =
          after && gmtDates
            ? orders.filter((o) => Date.parse(`${o.date_created_gmt}Z`) > Date.parse(`${after}Z`))
            : orders;
        return paged(req, matching);
      },
      [`GET ${API}/customers`]: (req) =>
        req.query.email !== undefined ? customers.filter((c) => c.email === req.query.email) : paged(req, customers),
      [`GET ${API}/products`]: (req) => paged(req, []),
      [`POST ${API}/customers`]: (req) => {
        const body = req.body as Record<string, unknown>;
        if (body.email === 'c1@example.com') {
          return wcError(
            400,
            'registration-error-email-exists',
            'An account is already registered with your email address.',
          );
        }
        return reply(201, { id: 500, ...body });
      },
      [`PUT ${API}/orders/:id`]: (req) => ({ id: Number(req.params.id), ...(req.body as object) }),
      [`POST ${API}/orders/:id/notes`]: (req) => reply(201, { id: 77, ...(req.body as object) }),
      [`POST ${API}/products`]: (req) => reply(201, { id: 900, ...(req.body as object) }),
      [`GET ${API}/products/categories`]: (req) => paged(req, categories),
      [`POST ${API}/webhooks`]: (req) => reply(201, { id: 142, status: 'active', ...(req.body as object) }),
      [`DELETE ${API}/webhooks/:id`]: (req) => ({ id: Number(req.params.id), status: 'active' }),
    },
  });
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({
  auth: { storeUrl: `${vendor.url}/`, consumerKey: KEY, consumerSecret: SECRET },
  parameters,
});

describe('woocommerce: connection', () => {
  it("checks the key on the store's API and names the site", async () => {
    expect(await verifyAppAuth(woocommerce, call().auth)).toMatchObject({ ok: true, screenName: 'Acme Goods' });
    expect(vendor.calls(`GET ${API}/settings/general`).at(-1)?.headers.authorization).toBe(
      basicHeader(KEY, SECRET).authorization,
    );
  });

  it("refuses a wrong key with WooCommerce's message, without the secret", async () => {
    const refused = await verifyAppAuth(woocommerce, { ...call().auth, consumerSecret: 'cs_wrong' });
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining('Sorry, you cannot list resources.') });
    expect(JSON.stringify(refused)).not.toContain('cs_wrong');
  });
});

describe('woocommerce: actions', () => {
  it("creates a customer with WooCommerce's field names", async () => {
    expect(
      await runAppAction(
        woocommerce,
        'createCustomer',
        call({ email: 'new@example.com', firstName: 'Ann', phone: '+33 1' }),
      ),
    ).toMatchObject({ id: 500 });
    expect(vendor.calls(`POST ${API}/customers`).at(-1)?.body).toEqual({
      email: 'new@example.com',
      first_name: 'Ann',
      billing: { phone: '+33 1' },
    });
  });

  it("surfaces WooCommerce's error message", async () => {
    await expect(runAppAction(woocommerce, 'createCustomer', call({ email: 'c1@example.com' }))).rejects.toThrow(
      /answered 400: An account is already registered with your email address\./,
    );
  });

  it('finds a customer by e-mail, or says there is none', async () => {
    expect(await runAppAction(woocommerce, 'findCustomer', call({ email: 'c7@example.com' }))).toMatchObject({
      found: true,
      id: 7,
    });
    expect(await runAppAction(woocommerce, 'findCustomer', call({ email: 'none@example.com' }))).toEqual({
      found: false,
    });
  });

  it('sets an order status and adds a note for the customer', async () => {
    expect(await runAppAction(woocommerce, 'updateOrderStatus', call({ orderId: '3', status: 'completed' }))).toEqual({
      id: 3,
      status: 'completed',
    });
    await runAppAction(woocommerce, 'createOrderNote', call({ orderId: '3', note: 'Shipped!', customerNote: true }));
    expect(vendor.calls(`POST ${API}/orders/:id/notes`).at(-1)?.body).toEqual({
      note: 'Shipped!',
      customer_note: true,
    });
  });

  it('creates a simple product in categories', async () => {
    await runAppAction(
      woocommerce,
      'createProduct',
      call({ name: 'Mug', regularPrice: '9.50', categories: ['2', '5'] }),
    );
    expect(vendor.calls(`POST ${API}/products`).at(-1)?.body).toEqual({
      name: 'Mug',
      type: 'simple',
      regular_price: '9.50',
      status: 'draft',
      categories: [{ id: 2 }, { id: 5 }],
    });
  });

  it('turns a 429 into a retryable failure, with its Retry-After', () =>
    expectRetryableRateLimit(vendor, () =>
      runAppAction(woocommerce, 'findCustomer', call({ email: 'x@example.com' })),
    ));
});

describe('woocommerce: polling triggers', () => {
  it('hands on new orders newest first, then those created after the poll before last, in UTC', async () => {
    const store = createMemoryStore();
    const poll = () => runAppTrigger(woocommerce, 'newOrders', { ...call(), store });
    const lastQuery = () => vendor.calls(`GET ${API}/orders`).at(-1)?.query;
    expect((await poll()).map((item) => item.id)).toEqual(['3', '2', '1']);
    expect(lastQuery()).toEqual({ orderby: 'date', order: 'desc', per_page: '100', dates_are_gmt: 'true', page: '1' });
    orders.unshift({ id: 4, number: '4', status: 'pending', date_created_gmt: gmt(T0 + 10 * minute) });
    expect((await poll()).map((item) => item.id)).toEqual(['4', '3', '2', '1']);
    expect((await poll()).map((item) => item.id)).toEqual(['4']);
    expect(lastQuery()).toMatchObject({ after: gmt(T0 + 3 * minute), dates_are_gmt: 'true' });
  });

  it('hands on the newest customer accounts, one page of them', async () => {
    const items = await runAppTrigger(woocommerce, 'newCustomers', call());
    expect(items).toHaveLength(100);
    expect(items[0]).toMatchObject({ id: '130', data: { email: 'c130@example.com' } });
    expect(vendor.calls(`GET ${API}/customers`).at(-1)?.query).toEqual({
      orderby: 'registered_date',
      order: 'desc',
      per_page: '100',
    });
  });
});

describe('woocommerce: instant trigger', () => {
  const webhookUrl = 'https://conveyor.test/webhooks/flows/f1';
  const hook = { id: 142, secret: 'flow-secret' };
  const order = { id: 5, status: 'processing', total: '29.00' };
  const rawBody = JSON.stringify(order);
  const delivery = (signature: string) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-wc-webhook-topic': 'order.created',
      'x-wc-webhook-delivery-id': 'a1b2c3',
      'x-wc-webhook-signature': signature,
    },
    query: {},
    body: order,
    rawBody,
  });

  it('creates a webhook with a secret of its own for the topic, and deletes it', async () => {
    const registered = (await registerAppHook(woocommerce, 'newEvent', {
      ...call({ topic: 'order.created' }),
      webhookUrl,
    })) as {
      id: number;
      secret: string;
    };
    expect(registered).toEqual({ id: 142, secret: expect.stringMatching(/^[\w-]{43}$/) });
    expect(vendor.calls(`POST ${API}/webhooks`).at(-1)?.body).toEqual({
      name: 'Conveyor (order.created)',
      topic: 'order.created',
      delivery_url: webhookUrl,
      secret: registered.secret,
      status: 'active',
    });
    await unregisterAppHook(woocommerce, 'newEvent', {
      ...call({ topic: 'order.created' }),
      webhookUrl,
      hook: registered,
    });
    const removed = vendor.calls(`DELETE ${API}/webhooks/:id`).at(-1);
    expect(removed?.path).toBe(`${API}/webhooks/142`);
    expect(removed?.query).toEqual({ force: 'true' });
  });

  it('hands on a signed delivery with its delivery id, and refuses a forged one', async () => {
    const params = call({ topic: 'order.created' });
    expect(
      await runAppTrigger(woocommerce, 'newEvent', {
        ...params,
        hook,
        webhook: delivery(hmacBase64('sha256', hook.secret, rawBody)),
      }),
    ).toEqual([{ id: 'a1b2c3', data: order }]);
    await expect(
      runAppTrigger(woocommerce, 'newEvent', {
        ...params,
        hook,
        webhook: delivery(hmacBase64('sha256', 'guess', rawBody)),
      }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
  });

  it("answers WooCommerce's ping with 200 and starts no run", async () => {
    const ping = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      query: {},
      body: { webhook_id: '142' },
      rawBody: 'webhook_id=142',
    };
    await expect(
      runAppTrigger(woocommerce, 'newEvent', { ...call({ topic: 'order.created' }), hook: null, webhook: ping }),
    ).rejects.toMatchObject({
      name: 'WebhookReplyRequested',
      reply: { status: 200 },
    });
  });
});

describe('woocommerce: dynamic data', () => {
  it('lists every page of product categories', async () => {
    const options = await loadAppDynamicData(woocommerce, 'listCategories', call());
    expect(options).toHaveLength(150);
    expect(options[149]).toEqual({ name: 'Category 150', value: '150' });
    expect(
      vendor
        .calls(`GET ${API}/products/categories`)
        .slice(-2)
        .map((req) => req.query.page),
    ).toEqual(['1', '2']);
  });
});
