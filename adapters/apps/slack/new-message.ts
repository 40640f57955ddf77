import { dynamicDropdown, pollingTrigger } from '../sdk/index.js';
import { okOrThrow, userToken } from './api.js';

interface Message {
  readonly ts: string;
  readonly subtype?: string;
}

/** What people post; joins, leaves, topic and name changes are messages of other subtypes. */
const POSTED = new Set([undefined, 'bot_message', 'file_share', 'thread_broadcast', 'me_message']);

export const newMessage = pollingTrigger({
  key: 'newMessage',
  name: 'New message in channel',
  description: 'Starts the flow for each message posted in a channel (not in its threads).',
  arguments: {
    channel: dynamicDropdown({ label: 'Channel', required: true, dynamicData: 'listChannels' }),
  },
  // Read as the member who connected when they did (they need not invite the bot), else as the bot.
  request: (p, ctx) => {
    const token = userToken(ctx.auth);
    return {
      path: '/conversations.history',
      query: { channel: p.channel, limit: 100 },
      ...(token && { headers: { authorization: `Bearer ${token}` } }),
    };
  },
  items: (data) =>
    (okOrThrow('conversations.history', data).messages as Message[] | undefined)?.filter((message) =>
      POSTED.has(message.subtype),
    ),
  id: (message: Message) => message.ts,
  // Slack's `oldest`: only messages after a timestamp; `ts` values compare as text (fixed width).
  since: { param: 'oldest', value: (message: Message) => message.ts },
});
