import { defineTrigger, hmacHex, refuseWebhook, replyToWebhook, safeEqual, text } from '../sdk/index.js';
import { slackAuth } from './auth.js';

/** Slack refuses to be replayed: a delivery signed more than five minutes ago is not taken. */
const MAX_AGE_SECONDS = 5 * 60;

interface Envelope {
  readonly type?: string;
  readonly challenge?: string;
  readonly event_id?: string;
  readonly event_time?: number;
  readonly team_id?: string;
  readonly event?: { readonly type?: string };
}

const header = (headers: Readonly<Record<string, string>>, name: string) => headers[name] ?? '';

export const newEvent = defineTrigger({
  key: 'newEvent',
  name: 'New event',
  description:
    'Starts the flow with each Events API event the Slack app sends (messages, mentions, reactions...) to the flow’s address.',
  type: 'webhook',
  arguments: {
    eventType: text({
      label: 'Event type',
      placeholder: 'app_mention',
      description: 'Only events of this type (message, app_mention, reaction_added...); empty: every event.',
    }),
  },
  async run(ctx) {
    const webhook = ctx.webhook;
    const secret = ctx.auth.client ? slackAuth.readClient(ctx.auth.client).signingSecret : undefined;
    if (!webhook || !secret) return refuseWebhook('The Slack OAuth client has no signing secret to check deliveries.');
    // X-Slack-Signature: v0=HMAC-SHA256 of "v0:<timestamp>:<raw body>" with the signing secret.
    const timestamp = header(webhook.headers, 'x-slack-request-timestamp');
    const age = Math.abs(Date.now() / 1000 - Number(timestamp));
    if (!/^\d+$/.test(timestamp) || age > MAX_AGE_SECONDS)
      return refuseWebhook('The Slack request timestamp is too old.');
    const expected = `v0=${hmacHex('sha256', secret, `v0:${timestamp}:${webhook.rawBody}`)}`;
    if (!safeEqual(header(webhook.headers, 'x-slack-signature'), expected)) {
      return refuseWebhook('The X-Slack-Signature does not verify with the signing secret.');
    }
    const envelope = webhook.body as Envelope | null;
    // Slack checks a Request URL by sending a challenge to answer.
    if (envelope?.type === 'url_verification') {
      return replyToWebhook({ status: 200, headers: { 'content-type': 'text/plain' }, body: envelope.challenge ?? '' });
    }
    if (envelope?.type !== 'event_callback' || !envelope.event || !envelope.event_id) return [];
    const wanted = ctx.parameters.eventType?.trim();
    if (wanted && envelope.event.type !== wanted) return [];
    // Slack retries a delivery it thinks failed with the same event_id: one run per event.
    return [
      {
        id: envelope.event_id,
        data: {
          ...envelope.event,
          event_id: envelope.event_id,
          event_time: envelope.event_time,
          team_id: envelope.team_id,
        },
      },
    ];
  },
});
