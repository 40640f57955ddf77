import { defineTrigger, deleteHook, hmacBase64, refuseWebhook, safeEqual } from '../sdk/index.js';

/** What publishing keeps: Zendesk's webhook id and the secret it signs deliveries with. */
interface Hook {
  readonly id: string;
  readonly secret: string;
}

/** Older deliveries are refused, so that a captured one cannot be replayed. */
const FRESHNESS_MS = 5 * 60_000;

export const newUsers = defineTrigger({
  key: 'newUsers',
  name: 'New users',
  description: 'Starts the flow at once when a user is created.',
  type: 'webhook',
  arguments: {},
  async registerHook(ctx) {
    const { data } = await ctx.http.request<{ webhook: { id: string } }>({
      method: 'POST',
      path: '/webhooks',
      body: {
        webhook: {
          name: 'Conveyor: new users',
          status: 'active',
          endpoint: ctx.webhookUrl,
          http_method: 'POST',
          request_format: 'json',
          subscriptions: ['zen:event-type:user.created'],
        },
      },
    });
    // Zendesk chooses the signing secret; it is read once, here.
    const { data: signing } = await ctx.http.request<{ signing_secret: { secret: string } }>({
      path: `/webhooks/${encodeURIComponent(data.webhook.id)}/signing_secret`,
    });
    return { id: data.webhook.id, secret: signing.signing_secret.secret } satisfies Hook;
  },
  async unregisterHook(ctx) {
    const hook = ctx.hook as Hook;
    await deleteHook(ctx.http, { path: `/webhooks/${encodeURIComponent(hook.id)}` });
  },
  async run(ctx) {
    const request = ctx.webhook;
    if (!request) return [];
    const hook = ctx.hook as Hook | null;
    if (!hook) return refuseWebhook('No Zendesk webhook is registered for this flow.');
    // Zendesk signs the timestamp header followed by the raw body.
    const timestamp = request.headers['x-zendesk-webhook-signature-timestamp'] ?? '';
    const expected = hmacBase64('sha256', hook.secret, `${timestamp}${request.rawBody}`);
    if (!safeEqual(request.headers['x-zendesk-webhook-signature'] ?? '', expected)) {
      return refuseWebhook('The X-Zendesk-Webhook-Signature header does not match the body.');
    }
    if (!(Math.abs(Date.now() - Date.parse(timestamp)) <= FRESHNESS_MS)) {
      return refuseWebhook('The delivery is more than five minutes old (X-Zendesk-Webhook-Signature-Timestamp).');
    }
    const event = request.body as { id?: string } | null;
    return [{ ...(event?.id && { id: event.id }), data: event }];
  },
});
