import { defineTrigger, dynamicDropdown, segment } from '../sdk/index.js';
import { newestFirst } from './channels.js';

interface Message {
  readonly id: string;
}

const PAGE = 100;
/** Pages read back past the latest one, when more than a page came since the last poll. */
const MAX_BACKFILL = 5;

const isAfter = (id: string, than: string) => BigInt(id) > BigInt(than);

export const newMessage = defineTrigger({
  key: 'newMessage',
  name: 'New message in channel',
  description: 'Starts the flow for each message posted in a channel of the server.',
  type: 'polling',
  arguments: {
    channel: dynamicDropdown({ label: 'Channel', required: true, dynamicData: 'listChannels' }),
  },
  async run(ctx) {
    const path = `/channels/${segment(ctx.parameters.channel)}/messages`;
    const page = async (before?: string) =>
      newestFirst(
        (await ctx.http.request<Message[]>({ path, query: { limit: PAGE, ...(before && { before }) } })).data,
      );
    // The latest page always (so a test of the trigger shows messages), then back to the newest
    // message an earlier poll saw when more than a page came since.
    const cursorKey = `discord:lastMessage:${ctx.parameters.channel}`;
    const seen = await ctx.store.get(cursorKey);
    const messages = await page();
    for (let pages = 0, last = messages; pages < MAX_BACKFILL && typeof seen === 'string'; pages++) {
      const oldest = last.at(-1);
      if (last.length < PAGE || !oldest || !isAfter(oldest.id, seen)) break;
      last = (await page(oldest.id)).filter((message) => isAfter(message.id, seen));
      messages.push(...last);
    }
    if (messages[0]) await ctx.store.set(cursorKey, messages[0].id);
    return messages.map((message) => ({ id: message.id, data: message }));
  },
});
