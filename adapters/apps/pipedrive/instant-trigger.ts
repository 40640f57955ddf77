import { randomBytes } from 'node:crypto';
import { basicHeader, defineTrigger, dropdown, refuseWebhook, safeEqual, segment } from '../sdk/index.js';

/** What registering keeps: Pipedrive's webhook id and the Basic credentials it sends back. */
interface PipedriveHook {
  readonly id: number;
  readonly user: string;
  readonly password: string;
}

/** A webhooks v2 delivery: the record, its previous state, and what happened. */
interface Delivery {
  readonly meta?: { readonly id?: string; readonly action?: string; readonly entity?: string };
}

export const newEvent = defineTrigger({
  key: 'newEvent',
  name: 'New event',
  description: 'Starts the flow at once when a record is created, changed or deleted in Pipedrive.',
  type: 'webhook',
  arguments: {
    eventObject: dropdown({
      label: 'Record',
      required: true,
      options: [
        { label: 'Deal', value: 'deal' },
        { label: 'Lead', value: 'lead' },
        { label: 'Person', value: 'person' },
        { label: 'Organization', value: 'organization' },
        { label: 'Activity', value: 'activity' },
        { label: 'Note', value: 'note' },
        { label: 'Product', value: 'product' },
        { label: 'Any', value: '*' },
      ],
    }),
    eventAction: dropdown({
      label: 'Event',
      required: true,
      options: [
        { label: 'Created', value: 'create' },
        { label: 'Changed', value: 'change' },
        { label: 'Deleted', value: 'delete' },
        { label: 'Any', value: '*' },
      ],
    }),
  },
  async registerHook(ctx) {
    // Pipedrive signs nothing: it sends back the HTTP Basic credentials the webhook was made with.
    const hook = { user: 'conveyor', password: randomBytes(24).toString('base64url') };
    const { data } = await ctx.http.request<{ data: { id: number } }>({
      method: 'POST',
      path: '/v1/webhooks',
      body: {
        subscription_url: ctx.webhookUrl,
        event_object: ctx.parameters.eventObject,
        event_action: ctx.parameters.eventAction,
        http_auth_user: hook.user,
        http_auth_password: hook.password,
        version: '2.0',
      },
    });
    return { id: data.data.id, ...hook } satisfies PipedriveHook;
  },
  async unregisterHook(ctx) {
    const hook = ctx.hook as PipedriveHook;
    await ctx.http.request({ method: 'DELETE', path: `/v1/webhooks/${segment(hook.id)}` });
  },
  async run(ctx) {
    const request = ctx.webhook;
    if (!request) return [];
    const hook = ctx.hook as PipedriveHook | null;
    if (!hook?.password) return refuseWebhook('No Pipedrive webhook is registered for this flow.');
    const expected = basicHeader(hook.user, hook.password).authorization ?? '';
    if (!safeEqual(request.headers.authorization ?? '', expected)) {
      return refuseWebhook('The delivery does not carry the webhook’s credentials.');
    }
    const delivery = request.body as Delivery;
    // The event's id stays the same when Pipedrive retries a delivery: one run per event.
    return [{ ...(delivery.meta?.id && { id: delivery.meta.id }), data: delivery }];
  },
});
