import { defineTrigger } from '../sdk/index.js';
import { guildPath } from './auth.js';
import { newestFirst } from './channels.js';

export const newScheduledEvent = defineTrigger({
  key: 'newScheduledEvent',
  name: 'New scheduled event',
  description: 'Starts the flow for each scheduled event created in the server.',
  type: 'polling',
  arguments: {},
  async run(ctx) {
    const { data } = await ctx.http.request<{ id: string }[]>({
      path: guildPath(ctx.auth, '/scheduled-events'),
      query: { with_user_count: true },
    });
    return newestFirst(data).map((event) => ({ id: event.id, data: event }));
  },
});
