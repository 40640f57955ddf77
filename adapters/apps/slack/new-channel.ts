import { defineTrigger } from '../sdk/index.js';
import { channelsOf } from './lists.js';

export const newChannel = defineTrigger({
  key: 'newChannel',
  name: 'New channel',
  description: 'Starts the flow for each public channel created in the workspace.',
  type: 'polling',
  arguments: {},
  async run(ctx) {
    const channels = await channelsOf(ctx.http, 'public_channel');
    return channels
      .sort((a, b) => (b.created ?? 0) - (a.created ?? 0))
      .map((channel) => ({ id: channel.id, data: channel }));
  },
});
