import {
  type AppContext,
  defineTrigger,
  dynamicDropdown,
  hmacBase64,
  refuseWebhook,
  safeEqual,
  segment,
} from '../sdk/index.js';
import { accountPath, twilioAuth } from './auth.js';
import { incomingNumber } from './phone-numbers.js';

/** What publishing kept: the number, the address Twilio posts to, and the number's SMS address before. */
interface Hook {
  readonly phoneNumberSid: string;
  readonly url: string;
  readonly previousSmsUrl: string;
  readonly previousSmsMethod: string;
}

const isHook = (value: unknown): value is Hook =>
  typeof value === 'object' && value !== null && typeof (value as Hook).url === 'string';

const setSmsUrl = (ctx: AppContext<unknown>, phoneNumberSid: string, url: string, method: string) =>
  ctx.http.request({
    method: 'POST',
    path: accountPath(twilioAuth.read(ctx.auth).accountSid, `/IncomingPhoneNumbers/${segment(phoneNumberSid)}.json`),
    body: new URLSearchParams({ SmsUrl: url, SmsMethod: method }),
  });

/**
 * Twilio's request signature: HMAC-SHA1 with the Auth Token over the address it posted to followed
 * by each form parameter's name and value, sorted by name, in base64.
 */
export const twilioSignature = (authToken: string, url: string, rawForm: string) => {
  const pairs = [...new URLSearchParams(rawForm)].sort(([a, x], [b, y]) =>
    a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1,
  );
  return hmacBase64('sha1', authToken, url + pairs.map(([name, value]) => name + value).join(''));
};

export const receiveSms = defineTrigger({
  key: 'receiveSms',
  name: 'Receive SMS',
  description: 'Starts the flow with each SMS one of the account’s numbers receives.',
  type: 'webhook',
  arguments: {
    phoneNumberSid: dynamicDropdown({
      label: 'To Number',
      required: true,
      dynamicData: 'listPhoneNumberSids',
      description: 'The Twilio number that receives the SMS; its SMS webhook is set to the flow while published.',
    }),
  },
  async registerHook(ctx) {
    const { phoneNumberSid } = ctx.parameters;
    const number = await incomingNumber(ctx, phoneNumberSid);
    await setSmsUrl(ctx, phoneNumberSid, ctx.webhookUrl, 'POST');
    return {
      phoneNumberSid,
      url: ctx.webhookUrl,
      previousSmsUrl: number.sms_url ?? '',
      previousSmsMethod: number.sms_method || 'POST',
    } satisfies Hook;
  },
  async unregisterHook(ctx) {
    if (!isHook(ctx.hook)) return;
    const number = await incomingNumber(ctx, ctx.hook.phoneNumberSid);
    // Another flow or person may have pointed the number elsewhere since: leave theirs.
    if (number.sms_url !== ctx.hook.url) return;
    await setSmsUrl(ctx, ctx.hook.phoneNumberSid, ctx.hook.previousSmsUrl, ctx.hook.previousSmsMethod);
  },
  async run(ctx) {
    const webhook = ctx.webhook;
    const signature = webhook?.headers['x-twilio-signature'];
    if (!webhook || !isHook(ctx.hook) || typeof signature !== 'string') {
      return refuseWebhook('The request carries no X-Twilio-Signature for this number’s webhook.');
    }
    const expected = twilioSignature(twilioAuth.read(ctx.auth).authToken, ctx.hook.url, webhook.rawBody);
    if (!safeEqual(signature, expected)) return refuseWebhook('The X-Twilio-Signature does not verify.');
    const message = Object.fromEntries(new URLSearchParams(webhook.rawBody));
    const id = message.MessageSid ?? message.SmsSid;
    if (!id) return refuseWebhook('The request is not a Twilio message.');
    // Twilio retries a delivery it saw fail with the same MessageSid: one run per message.
    return [{ id, data: message }];
  },
});
