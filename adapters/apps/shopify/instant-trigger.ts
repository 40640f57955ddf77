import { defineTrigger, dropdown, hmacBase64, refuseWebhook, safeEqual } from '../sdk/index.js';
import { assertNoUserErrors, shopifyGraphql, type UserError } from './graphql.js';

/** What registering keeps: the subscription's global id. */
interface ShopifyHook {
  readonly id: string;
}

const TOPICS = [
  ['ORDERS_CREATE', 'Order created'],
  ['ORDERS_PAID', 'Order paid'],
  ['ORDERS_UPDATED', 'Order updated'],
  ['ORDERS_FULFILLED', 'Order fulfilled'],
  ['ORDERS_CANCELLED', 'Order cancelled'],
  ['REFUNDS_CREATE', 'Refund created'],
  ['CHECKOUTS_CREATE', 'Checkout created'],
  ['CUSTOMERS_CREATE', 'Customer created'],
  ['CUSTOMERS_UPDATE', 'Customer updated'],
  ['PRODUCTS_CREATE', 'Product created'],
  ['PRODUCTS_UPDATE', 'Product updated'],
  ['INVENTORY_LEVELS_UPDATE', 'Inventory level updated'],
] as const;

const clientSecretOf = (data: Readonly<Record<string, unknown>>) =>
  typeof data.clientSecret === 'string' && data.clientSecret !== '' ? data.clientSecret : null;

export const newEvent = defineTrigger({
  key: 'newEvent',
  name: 'New event',
  description: 'Starts the flow at once when an order, customer or product event happens in the shop.',
  type: 'webhook',
  arguments: {
    topic: dropdown({ label: 'Event', required: true, options: TOPICS.map(([value, label]) => ({ label, value })) }),
  },
  async registerHook(ctx) {
    // Shopify signs deliveries with the app's secret: without it none could be checked.
    if (clientSecretOf(ctx.auth.data) === null) {
      throw new Error('Instant triggers need the app’s client secret (API secret key) in the connection.');
    }
    const data = await shopifyGraphql<{
      webhookSubscriptionCreate: { webhookSubscription: { id: string } | null; userErrors: readonly UserError[] };
    }>(
      ctx.http,
      `mutation ($topic: WebhookSubscriptionTopic!, $subscription: WebhookSubscriptionInput!) {
        webhookSubscriptionCreate(topic: $topic, webhookSubscription: $subscription) {
          webhookSubscription { id }
          userErrors { field message }
        }
      }`,
      { topic: ctx.parameters.topic, subscription: { uri: ctx.webhookUrl, format: 'JSON' } },
    );
    assertNoUserErrors('subscribe to the event', data.webhookSubscriptionCreate.userErrors);
    const subscription = data.webhookSubscriptionCreate.webhookSubscription;
    if (!subscription) throw new Error('Shopify made no webhook subscription.');
    return { id: subscription.id } satisfies ShopifyHook;
  },
  async unregisterHook(ctx) {
    const hook = ctx.hook as ShopifyHook;
    const data = await shopifyGraphql<{ webhookSubscriptionDelete: { userErrors: readonly UserError[] } }>(
      ctx.http,
      'mutation ($id: ID!) { webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId userErrors { field message } } }',
      { id: hook.id },
    );
    assertNoUserErrors('remove the webhook subscription', data.webhookSubscriptionDelete.userErrors);
  },
  async run(ctx) {
    const request = ctx.webhook;
    if (!request) return [];
    const secret = clientSecretOf(ctx.auth.data);
    if (ctx.hook === null || secret === null) return refuseWebhook('No Shopify webhook is registered for this flow.');
    // Base64 HMAC-SHA256 of the raw body, with the app's client secret.
    if (!safeEqual(request.headers['x-shopify-hmac-sha256'] ?? '', hmacBase64('sha256', secret, request.rawBody))) {
      return refuseWebhook('The X-Shopify-Hmac-Sha256 header does not match the body.');
    }
    // The event's id is the same on Shopify's retries: one run per event.
    const id = request.headers['x-shopify-event-id'] || request.headers['x-shopify-webhook-id'];
    return [{ ...(id && { id }), data: request.body }];
  },
});
