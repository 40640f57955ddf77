import { defineAction, dynamicDropdown } from '../sdk/index.js';
import { message } from './send-message-to-channel.js';

export const sendDirectMessage = defineAction({
  key: 'sendDirectMessage',
  name: 'Send a direct message',
  description: 'Sends a direct message to a user, from the connection’s account.',
  arguments: {
    user: dynamicDropdown({
      label: 'User',
      required: true,
      dynamicData: 'listUsers',
      acceptsVariables: true,
      description: 'The user to write to (a user ID).',
    }),
    message,
  },
  async run(ctx) {
    const { data: me } = await ctx.http.request<{ id: string }>({ path: '/users/me' });
    // The direct channel of two users exists once: creating it again answers the same channel.
    const { data: channel } = await ctx.http.request<{ id: string }>({
      method: 'POST',
      path: '/channels/direct',
      body: [me.id, ctx.parameters.user],
    });
    const { data } = await ctx.http.request({
      method: 'POST',
      path: '/posts',
      body: { channel_id: channel.id, message: ctx.parameters.message },
    });
    return data;
  },
});
