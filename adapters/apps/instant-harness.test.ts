import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registerAppHook, runAppTrigger, unregisterAppHook } from './app-harness.js';
import {
  defineApp,
  defineTrigger,
  fieldsAuth,
  hmacBase64,
  refuseWebhook,
  replyToWebhook,
  safeEqual,
  text,
  WebhookRefusedError,
  WebhookReplyRequested,
} from './sdk/index.js';

/** What a vendor in the test's memory holds: its hooks by id. */
const vendorHooks = new Map<string, { url: string; topic: string; secret: string }>();

/** An app whose vendor signs the raw body with HMAC-SHA256 in base64, as Shopify does. */
const shop = defineApp({
  key: 'shop',
  name: 'Shop',
  description: 'A shop with webhooks.',
  icon: '<svg xmlns="http://www.w3.org/2000/svg"/>',
  primaryColor: '#000000',
  version: 1,
  auth: fieldsAuth({
    fields: { token: text({ label: 'Token', required: true, secret: true }) },
    async verify() {
      return { screenName: 'shop' };
    },
  }),
  triggers: [
    defineTrigger({
      key: 'newOrder',
      name: 'New order',
      description: 'An order was placed.',
      type: 'webhook',
      arguments: { topic: text({ label: 'Topic', required: true }) },
      async run(ctx) {
        const request = ctx.webhook;
        if (!request) return [];
        if (request.query.verify === 'yes') return replyToWebhook({ status: 200, body: { ok: true } });
        const secret = (ctx.hook as { secret?: string } | null)?.secret;
        if (!secret) return refuseWebhook('No hook is registered for this flow.');
        if (!safeEqual(request.headers['x-shop-hmac'] ?? '', hmacBase64('sha256', secret, request.rawBody)))
          return refuseWebhook('The X-Shop-Hmac header does not match the body.');
        return [{ data: request.body }];
      },
      async registerHook(ctx) {
        const id = `hook-${vendorHooks.size + 1}`;
        const secret = `secret-of-${ctx.auth.data.token}`;
        vendorHooks.set(id, { url: ctx.webhookUrl, topic: ctx.parameters.topic, secret });
        return { id, secret };
      },
      async unregisterHook(ctx) {
        const { id } = ctx.hook as { id: string };
        if (!vendorHooks.delete(id)) throw new Error(`No hook ${id}.`);
      },
    }),
  ],
  actions: [],
});

describe('an instant trigger outside a flow (conveyor/testing)', () => {
  const call = {
    auth: { token: 't1' },
    parameters: { topic: 'orders/create' },
    webhookUrl: 'https://c.test/webhooks/flows/f1',
  };
  const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('base64');

  it('registers the hook, verifies deliveries against what it kept, and removes it', async () => {
    const hook = await registerAppHook(shop, 'newOrder', call);
    expect(hook).toEqual({ id: 'hook-1', secret: 'secret-of-t1' });
    expect(vendorHooks.get('hook-1')).toEqual({ url: call.webhookUrl, topic: 'orders/create', secret: 'secret-of-t1' });

    // Signed over the body's bytes as sent, spacing included: a parsed body serialised again would not verify.
    const rawBody = '{"id": 7,  "total": "12.50"}';
    const delivery = {
      method: 'POST',
      headers: { 'x-shop-hmac': sign('secret-of-t1', rawBody) },
      query: {},
      body: JSON.parse(rawBody),
      rawBody,
    };
    expect(await runAppTrigger(shop, 'newOrder', { ...call, webhook: delivery, hook })).toEqual([
      { data: { id: 7, total: '12.50' } },
    ]);
    await expect(
      runAppTrigger(shop, 'newOrder', {
        ...call,
        webhook: { ...delivery, headers: { 'x-shop-hmac': sign('guessed', rawBody) } },
        hook,
      }),
    ).rejects.toEqual(new WebhookRefusedError('The X-Shop-Hmac header does not match the body.'));
    await expect(runAppTrigger(shop, 'newOrder', { ...call, webhook: delivery, hook: null })).rejects.toBeInstanceOf(
      WebhookRefusedError,
    );

    await unregisterAppHook(shop, 'newOrder', { ...call, hook });
    expect(vendorHooks.has('hook-1')).toBe(false);
  });

  it('answers a handshake itself', async () => {
    const handshake = runAppTrigger(shop, 'newOrder', {
      ...call,
      webhook: { method: 'GET', headers: {}, query: { verify: 'yes' }, body: null },
    });
    await expect(handshake).rejects.toBeInstanceOf(WebhookReplyRequested);
    await expect(handshake).rejects.toMatchObject({ reply: { status: 200, body: { ok: true } } });
  });

  it('hands a request without a raw body its body as JSON text', async () => {
    const body = { id: 8 };
    const headers = { 'x-shop-hmac': sign('secret-of-t1', JSON.stringify(body)) };
    const items = await runAppTrigger(shop, 'newOrder', {
      ...call,
      webhook: { method: 'POST', headers, query: {}, body },
      hook: { secret: 'secret-of-t1' },
    });
    expect(items).toEqual([{ data: body }]);
  });
});
