import { randomBytes } from 'node:crypto';
import {
  defineTrigger,
  dropdown,
  hmacBase64,
  refuseWebhook,
  replyToWebhook,
  safeEqual,
  segment,
} from '../sdk/index.js';

/** What registering keeps: the store's webhook id and the secret chosen to sign deliveries. */
interface WooHook {
  readonly id: number;
  readonly secret: string;
}

const TOPICS = [
  ['order.created', 'Order created'],
  ['order.updated', 'Order updated'],
  ['order.deleted', 'Order deleted'],
  ['customer.created', 'Customer created'],
  ['customer.updated', 'Customer updated'],
  ['product.created', 'Product created'],
  ['product.updated', 'Product updated'],
  ['coupon.created', 'Coupon created'],
] as const;

/** WooCommerce's test delivery when a webhook is saved: `webhook_id=<id>` as a form, unsigned. */
const isPing = (headers: Readonly<Record<string, string>>, body: unknown) =>
  headers['x-wc-webhook-signature'] === undefined &&
  typeof body === 'object' &&
  body !== null &&
  /^\d+$/.test(String((body as Record<string, unknown>).webhook_id ?? ''));

export const newEvent = defineTrigger({
  key: 'newEvent',
  name: 'New event',
  description: 'Starts the flow at once when an order, customer, product or coupon event happens in the store.',
  type: 'webhook',
  arguments: {
    topic: dropdown({ label: 'Event', required: true, options: TOPICS.map(([value, label]) => ({ label, value })) }),
  },
  async registerHook(ctx) {
    // WooCommerce signs with the secret the webhook is created with: one of our own, per flow.
    const secret = randomBytes(32).toString('base64url');
    const { data } = await ctx.http.request<{ id: number }>({
      method: 'POST',
      path: '/webhooks',
      body: {
        name: `Conveyor (${ctx.parameters.topic})`,
        topic: ctx.parameters.topic,
        delivery_url: ctx.webhookUrl,
        secret,
        status: 'active',
      },
    });
    return { id: data.id, secret } satisfies WooHook;
  },
  async unregisterHook(ctx) {
    const hook = ctx.hook as WooHook;
    await ctx.http.request({ method: 'DELETE', path: `/webhooks/${segment(hook.id)}`, query: { force: true } });
  },
  async run(ctx) {
    const request = ctx.webhook;
    if (!request) return [];
    // The ping comes while the webhook is being created, before any secret is stored: it starts no run.
    if (isPing(request.headers, request.body)) return replyToWebhook({ status: 200 });
    const hook = ctx.hook as WooHook | null;
    if (!hook?.secret) return refuseWebhook('No WooCommerce webhook is registered for this flow.');
    if (
      !safeEqual(request.headers['x-wc-webhook-signature'] ?? '', hmacBase64('sha256', hook.secret, request.rawBody))
    ) {
      return refuseWebhook('The X-WC-Webhook-Signature header does not match the body.');
    }
    const delivery = request.headers['x-wc-webhook-delivery-id'];
    return [{ ...(delivery && { id: delivery }), data: request.body }];
  },
});
