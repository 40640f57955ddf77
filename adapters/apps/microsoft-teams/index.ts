import { GRAPH_API } from '../microsoft-common/index.js';
import { defineApp } from '../sdk/index.js';
import { createChannel, replyToChannelMessage, sendChannelMessage, sendChatMessage } from './actions.js';
import { teamsAuth } from './auth.js';
import { icon } from './icon.js';
import { listChannels, listChats, listTeams } from './places.js';
import { newChannelMessage, newChannelMessageInstant, newChatMessage, newChatMessageInstant } from './triggers.js';

export const microsoftTeams = defineApp({
  key: 'microsoft-teams',
  name: 'Microsoft Teams',
  description: 'Channel and chat messages, and channels, in Microsoft Teams.',
  icon,
  primaryColor: '#5059c9',
  categories: ['communication'],
  version: 1,
  auth: teamsAuth,
  triggers: [newChannelMessage, newChatMessage, newChannelMessageInstant, newChatMessageInstant],
  actions: [sendChannelMessage, replyToChannelMessage, sendChatMessage, createChannel],
  dynamicData: { listTeams, listChannels, listChats },
  http: { baseUrl: GRAPH_API },
});
