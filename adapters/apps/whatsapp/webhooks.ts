import {
  type AppContext,
  type AuthAccess,
  defineTrigger,
  hmacHex,
  refuseWebhook,
  replyToWebhook,
  safeEqual,
  segment,
  type TriggerContext,
} from '../sdk/index.js';
import { connectionOf } from './auth.js';
import { graph } from './graph.js';

/** One `messages` change of a WhatsApp Business Account notification. */
interface MessagesValue {
  readonly metadata?: { readonly phone_number_id?: string; readonly display_phone_number?: string };
  readonly contacts?: readonly { readonly wa_id?: string; readonly profile?: { readonly name?: string } }[];
  readonly messages?: readonly { readonly id: string; readonly from?: string }[];
  readonly statuses?: readonly { readonly id: string; readonly status: string }[];
}

interface Notification {
  readonly object?: string;
  readonly entry?: readonly {
    readonly changes?: readonly { readonly field?: string; readonly value?: MessagesValue }[];
  }[];
}

/**
 * The token Meta sends back when it checks the flow's address: derived from the app secret and
 * the number, since Meta checks while the address is being registered, before anything is kept.
 */
export const verifyTokenOf = (auth: Pick<AuthAccess, 'data'>) => {
  const { appSecret, phoneNumberId } = connectionOf(auth);
  return hmacHex('sha256', appSecret ?? '', `conveyor whatsapp webhook ${phoneNumberId}`);
};

const numberPath = (auth: Pick<AuthAccess, 'data'>) => `/${segment(connectionOf(auth).phoneNumberId)}`;

const single = (value: unknown) => (Array.isArray(value) ? value[0] : value);

/**
 * The `messages` changes of a delivery for the connection's number, once the delivery is Meta's
 * (X-Hub-Signature-256: HMAC-SHA256 of the raw body with the app secret). Meta's check of the
 * address (a GET with `hub.challenge`) is answered with the challenge.
 */
const changesOf = (ctx: TriggerContext<unknown>): MessagesValue[] => {
  const webhook = ctx.webhook;
  const { appSecret, phoneNumberId } = connectionOf(ctx.auth);
  if (!webhook || !appSecret) return refuseWebhook('The WhatsApp connection has no app secret to check deliveries.');
  if (webhook.method === 'GET') {
    const token = single(webhook.query['hub.verify_token']);
    const challenge = single(webhook.query['hub.challenge']);
    if (single(webhook.query['hub.mode']) !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string')
      return refuseWebhook('The request is not Meta’s verification of the address.');
    if (!safeEqual(token, verifyTokenOf(ctx.auth))) return refuseWebhook('The verify token does not match.');
    return replyToWebhook({ status: 200, headers: { 'content-type': 'text/plain' }, body: challenge });
  }
  const signature = webhook.headers['x-hub-signature-256'];
  if (typeof signature !== 'string' || !safeEqual(signature, `sha256=${hmacHex('sha256', appSecret, webhook.rawBody)}`))
    return refuseWebhook('The X-Hub-Signature-256 does not verify with the app secret.');
  const notification = webhook.body as Notification | null;
  return (notification?.entry ?? [])
    .flatMap((entry) => entry.changes ?? [])
    .filter((change) => change.field === 'messages' && change.value?.metadata?.phone_number_id === phoneNumberId)
    .flatMap((change) => (change.value ? [change.value] : []));
};

/**
 * Publishing points the number's webhook at the flow (Meta's per-number override of the app's
 * callback URL); unpublishing removes the override, unless the number points elsewhere by then.
 */
const hooks = {
  async registerHook(ctx: AppContext<unknown> & { readonly webhookUrl: string }) {
    if (!connectionOf(ctx.auth).appSecret) {
      throw new Error('Enter the Meta app’s secret in the WhatsApp connection: the trigger checks deliveries with it.');
    }
    await graph(ctx, {
      method: 'POST',
      path: numberPath(ctx.auth),
      body: { webhook_configuration: { override_callback_uri: ctx.webhookUrl, verify_token: verifyTokenOf(ctx.auth) } },
    });
    return { url: ctx.webhookUrl };
  },
  async unregisterHook(ctx: AppContext<unknown> & { readonly webhookUrl: string }) {
    const current = await graph<{ webhook_configuration?: { phone_number?: string } }>(ctx, {
      path: numberPath(ctx.auth),
      query: { fields: 'webhook_configuration' },
    });
    if (current.webhook_configuration?.phone_number !== ctx.webhookUrl) return;
    await graph(ctx, {
      method: 'POST',
      path: numberPath(ctx.auth),
      body: { webhook_configuration: { override_callback_uri: '' } },
    });
  },
};

export const newMessage = defineTrigger({
  key: 'newMessage',
  name: 'New message',
  description: 'Starts the flow with each message a person sends to the business number.',
  type: 'webhook',
  arguments: {},
  ...hooks,
  async run(ctx) {
    return changesOf(ctx).flatMap((value) =>
      (value.messages ?? []).map((message) => ({
        id: message.id,
        data: {
          ...message,
          contact: value.contacts?.find((contact) => contact.wa_id === message.from) ?? null,
          metadata: value.metadata,
        },
      })),
    );
  },
});

export const newMessageStatus = defineTrigger({
  key: 'newMessageStatus',
  name: 'New message status',
  description: 'Starts the flow when a message the business number sent is sent, delivered, read or fails.',
  type: 'webhook',
  arguments: {},
  ...hooks,
  async run(ctx) {
    // A message goes through several statuses: each is its own item.
    return changesOf(ctx).flatMap((value) =>
      (value.statuses ?? []).map((status) => ({
        id: `${status.id}:${status.status}`,
        data: { ...status, metadata: value.metadata },
      })),
    );
  },
});
