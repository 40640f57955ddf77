import { createPublicKey, verify } from 'node:crypto';
import { type DraftContext, defineTrigger, dynamicMultiSelect, refuseWebhook, segment } from '../sdk/index.js';

/** The Event Webhook's events, as its settings name them (and as events' `event` field does). */
const EVENTS = [
  'processed',
  'dropped',
  'delivered',
  'deferred',
  'bounce',
  'open',
  'click',
  'spam_report',
  'unsubscribe',
  'group_unsubscribe',
  'group_resubscribe',
] as const;

export const listEventTypes = async (_ctx: DraftContext) => EVENTS.map((event) => ({ name: event, value: event }));

/** The flow's Event Webhook at SendGrid, and the key SendGrid signs its deliveries with. */
interface Hook {
  readonly id: string;
  readonly publicKey: string;
}

const isHook = (value: unknown): value is Hook =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Hook).id === 'string' &&
  typeof (value as Hook).publicKey === 'string';

/** A signed delivery older than this is refused, so that a captured one cannot be replayed. */
const MAX_AGE_S = 5 * 60;

/** SendGrid signs `<timestamp><raw body>` with ECDSA P-256 and SHA-256; the key is base64 SPKI (DER). */
const signedBySendGrid = (publicKey: string, timestamp: string, rawBody: string, signature: string) => {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    return verify('sha256', Buffer.from(timestamp + rawBody, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
};

interface EmailEvent {
  readonly sg_event_id?: unknown;
  readonly event?: unknown;
  readonly timestamp?: unknown;
}

export const newEmailEvent = defineTrigger({
  key: 'newEmailEvent',
  name: 'New e-mail event',
  description: 'Starts the flow with each event of the e-mail SendGrid sends: delivered, opened, clicked, bounced...',
  type: 'webhook',
  arguments: {
    eventTypes: dynamicMultiSelect({
      label: 'Events',
      description: 'None chosen: every event.',
      dynamicData: 'listEventTypes',
    }),
  },
  async registerHook(ctx) {
    const chosen = ctx.parameters.eventTypes?.length ? ctx.parameters.eventTypes : EVENTS;
    const { data } = await ctx.http.request<{ id: string }>({
      method: 'POST',
      path: '/user/webhooks/event/settings',
      body: {
        enabled: true,
        url: ctx.webhookUrl,
        friendly_name: 'Conveyor',
        ...Object.fromEntries(EVENTS.map((event) => [event, chosen.includes(event)])),
      },
    });
    try {
      const signed = await ctx.http.request<{ public_key: string }>({
        method: 'PATCH',
        path: `/user/webhooks/event/settings/signed/${segment(data.id)}`,
        body: { enabled: true },
      });
      return { id: data.id, publicKey: signed.data.public_key } satisfies Hook;
    } catch (error) {
      // An unsigned webhook could not be told from a forged one: it goes.
      await ctx.http
        .request({ method: 'DELETE', path: `/user/webhooks/event/settings/${segment(data.id)}` })
        .catch(() => {});
      throw error;
    }
  },
  async unregisterHook(ctx) {
    if (!isHook(ctx.hook)) return;
    await ctx.http.request({ method: 'DELETE', path: `/user/webhooks/event/settings/${segment(ctx.hook.id)}` });
  },
  async run(ctx) {
    const request = ctx.webhook;
    if (!request) return [];
    if (!isHook(ctx.hook)) return refuseWebhook('No SendGrid Event Webhook is registered for this flow.');
    const signature = request.headers['x-twilio-email-event-webhook-signature'] ?? '';
    const timestamp = request.headers['x-twilio-email-event-webhook-timestamp'] ?? '';
    if (!signedBySendGrid(ctx.hook.publicKey, timestamp, request.rawBody, signature)) {
      return refuseWebhook('The X-Twilio-Email-Event-Webhook-Signature header does not match the body.');
    }
    if (!(Math.abs(Date.now() / 1000 - Number(timestamp)) <= MAX_AGE_S)) {
      return refuseWebhook('The delivery is signed more than five minutes from now.');
    }
    const chosen = ctx.parameters.eventTypes ?? [];
    const events = Array.isArray(request.body) ? (request.body as EmailEvent[]) : [];
    // One run per event (SendGrid batches them), the latest first.
    return events
      .filter((event) => chosen.length === 0 || chosen.includes(String(event.event)))
      .sort((a, b) => Number(b.timestamp ?? 0) - Number(a.timestamp ?? 0))
      .map((event) => ({ ...(typeof event.sg_event_id === 'string' && { id: event.sg_event_id }), data: event }));
  },
});
