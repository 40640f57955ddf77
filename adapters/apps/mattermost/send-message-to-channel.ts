import { dynamicDropdown, restAction, text } from '../sdk/index.js';

export const message = text({
  label: 'Message text',
  required: true,
  acceptsVariables: true,
  description: 'The content of your new message; Mattermost’s Markdown applies.',
});

export const sendMessageToChannel = restAction({
  key: 'sendMessageToChannel',
  name: 'Send a message to channel',
  description: 'Posts a message to a channel you specify.',
  arguments: {
    channel: dynamicDropdown({
      label: 'Channel',
      required: true,
      dynamicData: 'listChannels',
      acceptsVariables: true,
      description: 'Pick a channel to send the message to.',
    }),
    message,
  },
  request: (p) => ({ method: 'POST', path: '/posts', body: { channel_id: p.channel, message: p.message } }),
});
