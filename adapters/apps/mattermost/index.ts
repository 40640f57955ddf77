import { defineApp } from '../sdk/index.js';
import { apiBaseOf, mattermostAuth } from './auth.js';
import { createChannel } from './create-channel.js';
import { icon } from './icon.js';
import { listChannels, listTeams, listUsers } from './lists.js';
import { newChannel } from './new-channel.js';
import { newMessage } from './new-message.js';
import { sendDirectMessage } from './send-direct-message.js';
import { sendMessageToChannel } from './send-message-to-channel.js';

export const mattermost = defineApp({
  key: 'mattermost',
  name: 'Mattermost',
  description: 'Post to channels and people on your Mattermost server, and start flows from its messages.',
  icon,
  primaryColor: '#1e325c',
  categories: ['communication'],
  version: 1,
  auth: mattermostAuth,
  triggers: [newMessage, newChannel],
  actions: [sendMessageToChannel, sendDirectMessage, createChannel],
  dynamicData: { listChannels, listTeams, listUsers },
  // Self-hosted only: the connection names its server.
  http: { connectionBaseUrl: apiBaseOf },
});
