import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { createMemoryStore, hmacBase64, WebhookRefusedError } from '../../adapters/apps/sdk/index.js';
import { shopApi } from '../../adapters/apps/shopify/auth.js';
import { shopify } from '../../adapters/apps/shopify/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { expectRetryableRateLimit } from './support/vendor-checks.js';

const TOKEN = 'shpat_good';
const APP_SECRET = 'shpss_app_secret';
/** The tokens the client-credentials grant gave, live for a day. */
const granted = new Set<string>();
let grants = 0;
const GRAPHQL = 'POST /admin/api/2026-07/graphql.json';

const orders = [
  { id: 'gid://shopify/Order/3', createdAt: '2026-11-01T12:03:00Z', name: '#1003' },
  { id: 'gid://shopify/Order/2', createdAt: '2026-11-01T12:02:00Z', name: '#1002' },
  { id: 'gid://shopify/Order/1', createdAt: '2026-11-01T12:01:00Z', name: '#1001' },
];

const collections = [
  { id: 'gid://shopify/Collection/1', title: 'Summer' },
  { id: 'gid://shopify/Collection/2', title: 'Winter' },
  { id: 'gid://shopify/Collection/3', title: 'Sale' },
];

/** A connection's page: two nodes, cursors as indexes. */
const page = <T>(all: readonly T[], after: string | null) => {
  const start = after === null ? 0 : Number(after);
  return {
    nodes: all.slice(start, start + 2),
    pageInfo: { hasNextPage: start + 2 < all.length, endCursor: String(start + 2) },
  };
};

/** The GraphQL Admin API, answering each operation the app sends by what it asks for. */
const graphql = (req: FakeRequest) => {
  const { query, variables } = req.body as { query: string; variables: Record<string, any> };
  if (query.includes('shop {'))
    return { data: { shop: { name: 'Acme Store', myshopifyDomain: 'acme.myshopify.com' } } };
  if (query.includes('orders(')) {
    const since = /created_at:>='([^']+)'/.exec(variables.search ?? '')?.[1];
    const matching = since ? orders.filter((o) => Date.parse(o.createdAt) >= Date.parse(since)) : orders;
    return { data: { orders: page(matching, variables.after) } };
  }
  if (query.includes('customerCreate')) {
    if (variables.input.email === 'taken@example.com') {
      return {
        data: {
          customerCreate: {
            customer: null,
            userErrors: [{ field: ['email'], message: 'Email has already been taken' }],
          },
        },
      };
    }
    return {
      data: { customerCreate: { customer: { id: 'gid://shopify/Customer/9', ...variables.input }, userErrors: [] } },
    };
  }
  if (query.includes('customers(first: 1')) {
    const found = variables.search === 'email:"ann@example.com"';
    return { data: { customers: { nodes: found ? [{ id: 'gid://shopify/Customer/7', firstName: 'Ann' }] : [] } } };
  }
  if (query.includes('productCreate')) {
    return {
      data: {
        productCreate: {
          product: {
            id: 'gid://shopify/Product/5',
            title: variables.product.title,
            variants: { nodes: [{ id: 'gid://shopify/ProductVariant/51', price: '0.00' }] },
          },
          userErrors: [],
        },
      },
    };
  }
  if (query.includes('productVariantsBulkUpdate')) {
    return {
      data: {
        productVariantsBulkUpdate: { productVariants: variables.variants, userErrors: [] },
      },
    };
  }
  if (query.includes('tagsAdd')) return { data: { tagsAdd: { node: { id: variables.id }, userErrors: [] } } };
  if (query.includes('collections(')) return { data: { collections: page(collections, variables.after) } };
  if (query.includes('webhookSubscriptionCreate')) {
    return {
      data: {
        webhookSubscriptionCreate: {
          webhookSubscription: { id: 'gid://shopify/WebhookSubscription/9' },
          userErrors: [],
        },
      },
    };
  }
  if (query.includes('webhookSubscriptionDelete')) {
    return { data: { webhookSubscriptionDelete: { deletedWebhookSubscriptionId: variables.id, userErrors: [] } } };
  }
  return { errors: [{ message: `Field is not defined: ${query.slice(0, 30)}` }] };
};

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) =>
      req.path === '/admin/oauth/access_token' ||
      req.headers['x-shopify-access-token'] === TOKEN ||
      granted.has(req.headers['x-shopify-access-token'] ?? ''),
    unauthorized: reply(401, {
      errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
    }),
    routes: {
      [GRAPHQL]: graphql,
      'POST /admin/oauth/access_token': (req) => {
        const form = req.body as Record<string, string>;
        if (
          form.client_id !== 'dev-app' ||
          form.client_secret !== APP_SECRET ||
          form.grant_type !== 'client_credentials'
        ) {
          return reply(400, { error: 'invalid_client', error_description: 'Client credentials are invalid' });
        }
        grants += 1;
        granted.add(`shpat_granted_${grants}`);
        return { access_token: `shpat_granted_${grants}`, scope: 'read_orders,write_customers', expires_in: 86399 };
      },
    },
  });
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({
  auth: { shopDomain: vendor.url, adminApiToken: TOKEN, clientSecret: APP_SECRET },
  parameters,
});

const lastOperation = () => vendor.calls(GRAPHQL).at(-1)?.body as { query: string; variables: Record<string, unknown> };

describe('shopify: connection', () => {
  it("finds the shop's Admin API from its domain or name", () => {
    expect(shopApi('acme')).toBe('https://acme.myshopify.com/admin/api/2026-07');
    expect(shopApi('acme.myshopify.com/')).toBe('https://acme.myshopify.com/admin/api/2026-07');
    expect(shopApi('https://acme.myshopify.com')).toBe('https://acme.myshopify.com/admin/api/2026-07');
  });

  it('names the shop, with the access token in its header', async () => {
    expect(await verifyAppAuth(shopify, call().auth)).toMatchObject({
      ok: true,
      screenName: 'Acme Store (acme.myshopify.com)',
    });
    expect(vendor.calls(GRAPHQL).at(-1)?.headers['x-shopify-access-token']).toBe(TOKEN);
  });

  it("refuses a wrong token with Shopify's message, and a shop that is not a myshopify.com domain", async () => {
    const refused = await verifyAppAuth(shopify, { shopDomain: vendor.url, adminApiToken: 'shpat_bad' });
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining('[API] Invalid API key or access token') });
    expect(JSON.stringify(refused)).not.toContain('shpat_bad');
    expect(await verifyAppAuth(shopify, { shopDomain: 'shop.example.com', adminApiToken: TOKEN })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('shopDomain'),
    });
  });
});

describe('shopify: a Dev Dashboard app', () => {
  it('gets a token with the client-credentials grant, keeps it, and sends it', async () => {
    const check = await verifyAppAuth(shopify, {
      shopDomain: vendor.url,
      clientId: 'dev-app',
      clientSecret: APP_SECRET,
    });
    expect(check).toMatchObject({ ok: true, screenName: 'Acme Store (acme.myshopify.com)' });
    if (!check.ok) return;
    expect(check.credentials).toMatchObject({ accessToken: `shpat_granted_${grants}`, expiresAt: expect.any(String) });
    expect(vendor.calls('POST /admin/oauth/access_token').at(-1)?.body).toEqual({
      grant_type: 'client_credentials',
      client_id: 'dev-app',
      client_secret: APP_SECRET,
    });
    expect(vendor.calls(GRAPHQL).at(-1)?.headers['x-shopify-access-token']).toBe(`shpat_granted_${grants}`);
  });

  it("reports the grant's refusal, and a connection with neither a token nor a client", async () => {
    expect(
      await verifyAppAuth(shopify, { shopDomain: vendor.url, clientId: 'dev-app', clientSecret: 'wrong-secret' }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('Client credentials are invalid') });
    expect(await verifyAppAuth(shopify, { shopDomain: vendor.url })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('Admin API access token'),
    });
  });
});

describe('shopify: actions', () => {
  it('creates a customer, tags split and consent given', async () => {
    const customer = await runAppAction(
      shopify,
      'createCustomer',
      call({ email: 'bo@example.com', firstName: 'Bo', tags: 'vip, newsletter', acceptsMarketing: true }),
    );
    expect(customer).toMatchObject({ id: 'gid://shopify/Customer/9' });
    expect(lastOperation().variables.input).toEqual({
      email: 'bo@example.com',
      firstName: 'Bo',
      tags: ['vip', 'newsletter'],
      emailMarketingConsent: { marketingState: 'SUBSCRIBED', marketingOptInLevel: 'SINGLE_OPT_IN' },
    });
  });

  it("fails with Shopify's user errors", async () => {
    await expect(runAppAction(shopify, 'createCustomer', call({ email: 'taken@example.com' }))).rejects.toThrow(
      'Shopify could not create the customer: email: Email has already been taken',
    );
  });

  it('finds a customer by a quoted e-mail search, or says there is none', async () => {
    expect(await runAppAction(shopify, 'findCustomer', call({ email: 'ann@example.com' }))).toMatchObject({
      found: true,
      firstName: 'Ann',
    });
    expect(await runAppAction(shopify, 'findCustomer', call({ email: 'x" OR email:"y' }))).toEqual({ found: false });
    expect(lastOperation().variables.search).toBe('email:"x\\" OR email:\\"y"');
  });

  it('creates a product in collections, then prices its variant', async () => {
    const product = await runAppAction(
      shopify,
      'createProduct',
      call({ title: 'Mug', price: '12.50', collections: ['gid://shopify/Collection/1'] }),
    );
    expect(product).toMatchObject({
      id: 'gid://shopify/Product/5',
      variants: { nodes: [{ id: 'gid://shopify/ProductVariant/51', price: '12.50' }] },
    });
    const [create, price] = vendor
      .calls(GRAPHQL)
      .slice(-2)
      .map((req) => (req.body as any).variables);
    expect(create.product).toEqual({
      title: 'Mug',
      status: 'DRAFT',
      collectionsToJoin: ['gid://shopify/Collection/1'],
    });
    expect(price).toEqual({
      productId: 'gid://shopify/Product/5',
      variants: [{ id: 'gid://shopify/ProductVariant/51', price: '12.50' }],
    });
  });

  it('adds tags to a record', async () => {
    expect(await runAppAction(shopify, 'addTags', call({ id: 'gid://shopify/Order/3', tags: 'gift,rush' }))).toEqual({
      id: 'gid://shopify/Order/3',
      tags: ['gift', 'rush'],
    });
  });

  it('turns a throttled query into a retryable failure after the wait its cost gives', async () => {
    vendor.route(GRAPHQL, () => ({
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
      extensions: { cost: { requestedQueryCost: 52, throttleStatus: { currentlyAvailable: 12, restoreRate: 50 } } },
    }));
    try {
      await expect(
        runAppAction(shopify, 'addTags', call({ id: 'gid://shopify/Order/3', tags: 'x' })),
      ).rejects.toMatchObject({
        name: 'TemporaryError',
        retryAfterSeconds: 1,
      });
    } finally {
      vendor.route(GRAPHQL, graphql);
    }
  });

  it('turns a 429 into a retryable failure, with its Retry-After', () =>
    expectRetryableRateLimit(vendor, () =>
      runAppAction(shopify, 'addTags', call({ id: 'gid://shopify/Order/3', tags: 'x' })),
    ));
});

describe('shopify: polling trigger', () => {
  it('hands on new orders newest first, then those created since the newest seen, every page', async () => {
    const store = createMemoryStore();
    const first = await runAppTrigger(shopify, 'newOrders', { ...call(), store });
    // The first poll reads one page, to learn what exists.
    expect(first.map((item) => item.id)).toEqual(['gid://shopify/Order/3', 'gid://shopify/Order/2']);
    expect(lastOperation().variables).toEqual({ search: null, after: null });
    expect(await store.get('shopify:orders:createdSince')).toBe(Date.parse('2026-11-01T12:03:00Z'));

    orders.unshift({ id: 'gid://shopify/Order/4', createdAt: '2026-11-01T12:09:00Z', name: '#1004' });
    const next = await runAppTrigger(shopify, 'newOrders', { ...call(), store });
    expect(next.map((item) => item.id)).toEqual([
      'gid://shopify/Order/4',
      'gid://shopify/Order/3',
      'gid://shopify/Order/2',
      'gid://shopify/Order/1',
    ]);
    expect(lastOperation().variables).toEqual({ search: "created_at:>='2026-11-01T11:58:00.000Z'", after: '2' });
    expect(next[0]?.data).toMatchObject({ name: '#1004' });
  });
});

describe('shopify: instant trigger', () => {
  const webhookUrl = 'https://conveyor.test/webhooks/flows/f1';
  const order = { id: 820982911946154500, name: '#1005', email: 'ann@example.com', total_price: '10.00' };
  const rawBody = JSON.stringify(order);
  const delivery = (signature: string) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': 'orders/create',
      'x-shopify-hmac-sha256': signature,
      'x-shopify-event-id': '98880550-7158-44d4-b7cd-2c97c8a091b5',
    },
    query: {},
    body: order,
    rawBody,
  });

  it('subscribes the flow address to the topic, and removes the subscription', async () => {
    const hook = await registerAppHook(shopify, 'newEvent', { ...call({ topic: 'ORDERS_CREATE' }), webhookUrl });
    expect(hook).toEqual({ id: 'gid://shopify/WebhookSubscription/9' });
    expect(lastOperation().variables).toEqual({
      topic: 'ORDERS_CREATE',
      subscription: { uri: webhookUrl, format: 'JSON' },
    });
    await unregisterAppHook(shopify, 'newEvent', { ...call({ topic: 'ORDERS_CREATE' }), webhookUrl, hook });
    expect(lastOperation().variables).toEqual({ id: 'gid://shopify/WebhookSubscription/9' });
  });

  it('refuses to subscribe without the client secret to check deliveries with', async () => {
    await expect(
      registerAppHook(shopify, 'newEvent', {
        ...call({ topic: 'ORDERS_CREATE' }),
        auth: { shopDomain: vendor.url, adminApiToken: TOKEN },
        webhookUrl,
      }),
    ).rejects.toThrow(/client secret/);
  });

  it('hands on a signed delivery with its event id, and refuses a forged one', async () => {
    const hook = { id: 'gid://shopify/WebhookSubscription/9' };
    const params = call({ topic: 'ORDERS_CREATE' });
    expect(
      await runAppTrigger(shopify, 'newEvent', {
        ...params,
        hook,
        webhook: delivery(hmacBase64('sha256', APP_SECRET, rawBody)),
      }),
    ).toEqual([{ id: '98880550-7158-44d4-b7cd-2c97c8a091b5', data: order }]);
    for (const signature of [hmacBase64('sha256', 'other-secret', rawBody), '']) {
      await expect(
        runAppTrigger(shopify, 'newEvent', { ...params, hook, webhook: delivery(signature) }),
      ).rejects.toBeInstanceOf(WebhookRefusedError);
    }
  });
});

describe('shopify: dynamic data', () => {
  it('lists every page of collections', async () => {
    expect(await loadAppDynamicData(shopify, 'listCollections', call())).toEqual([
      { name: 'Summer', value: 'gid://shopify/Collection/1' },
      { name: 'Winter', value: 'gid://shopify/Collection/2' },
      { name: 'Sale', value: 'gid://shopify/Collection/3' },
    ]);
  });
});
