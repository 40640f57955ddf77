import { randomBytes } from 'node:crypto';
import { defineTrigger, dropdown, refuseWebhook, safeEqual } from '../sdk/index.js';
import { callTelegram } from './api.js';

/** The Bot API's update types, as `allowed_updates` names them. */
const UPDATE_TYPES = [
  ['Message', 'message'],
  ['Edited Message', 'edited_message'],
  ['Channel Post', 'channel_post'],
  ['Edited Channel Post', 'edited_channel_post'],
  ['Business Connection', 'business_connection'],
  ['Business Message', 'business_message'],
  ['Edited Business Message', 'edited_business_message'],
  ['Deleted Business Messages', 'deleted_business_messages'],
  ['Message Reaction', 'message_reaction'],
  ['Message Reaction Count', 'message_reaction_count'],
  ['Inline Query', 'inline_query'],
  ['Chosen Inline Result', 'chosen_inline_result'],
  ['Callback Query', 'callback_query'],
  ['Shipping Query', 'shipping_query'],
  ['Pre-checkout Query', 'pre_checkout_query'],
  ['Purchased Paid Media', 'purchased_paid_media'],
  ['Poll', 'poll'],
  ['Poll Answer', 'poll_answer'],
  ['My Chat Member', 'my_chat_member'],
  ['Chat Member', 'chat_member'],
  ['Chat Join Request', 'chat_join_request'],
  ['Chat Boost', 'chat_boost'],
  ['Removed Chat Boost', 'removed_chat_boost'],
] as const;

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

interface Hook {
  readonly secret: string;
}

const secretOf = (hook: unknown) =>
  typeof hook === 'object' && hook !== null && typeof (hook as Hook).secret === 'string' ? (hook as Hook).secret : null;

export const newMessage = defineTrigger({
  key: 'newMessage',
  name: 'New message',
  description: 'Starts the flow with each update the bot receives: by default, messages sent to it.',
  type: 'webhook',
  arguments: {
    allowedUpdates: dropdown({
      label: 'Allowed Update Types',
      description:
        'The kind of update to receive. Empty: every kind but chat_member, message_reaction and message_reaction_count.',
      options: UPDATE_TYPES.map(([label, value]) => ({ label, value })),
    }),
  },
  async registerHook(ctx) {
    // Telegram sends this secret back in a header with every update: only it proves the sender.
    const secret = randomBytes(32).toString('hex');
    const { allowedUpdates } = ctx.parameters;
    await callTelegram(ctx, 'setWebhook', {
      url: ctx.webhookUrl,
      secret_token: secret,
      allowed_updates: allowedUpdates ? [allowedUpdates] : [],
    });
    return { secret } satisfies Hook;
  },
  async unregisterHook(ctx) {
    // A bot has one webhook: when another flow's address replaced this one, it stays.
    const info = await callTelegram<{ url?: string }>(ctx, 'getWebhookInfo');
    if (info.url === ctx.webhookUrl) await callTelegram(ctx, 'deleteWebhook');
  },
  async run(ctx) {
    const secret = secretOf(ctx.hook);
    const given = ctx.webhook?.headers[SECRET_HEADER];
    if (!secret || typeof given !== 'string' || !safeEqual(given, secret)) {
      return refuseWebhook('The X-Telegram-Bot-Api-Secret-Token header does not match the bot’s webhook.');
    }
    const update = ctx.webhook?.body as { update_id?: unknown } | null;
    if (typeof update?.update_id !== 'number') return refuseWebhook('The request is not a Telegram update.');
    return [{ id: String(update.update_id), data: update }];
  },
});
