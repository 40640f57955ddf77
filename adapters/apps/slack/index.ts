import { defineApp } from '../sdk/index.js';
import { slackAuth } from './auth.js';
import { findMessage, findUserByEmail } from './find.js';
import { icon } from './icon.js';
import { listChannels, listUsers } from './lists.js';
import { newChannel } from './new-channel.js';
import { newEvent } from './new-event.js';
import { newMessage } from './new-message.js';
import { listFieldsAfterSendAsBot, sendDirectMessage, sendMessageToChannel } from './post-message.js';

export const slack = defineApp({
  key: 'slack',
  name: 'Slack',
  description: 'Post to channels and people, find messages and members, and start flows from a Slack workspace.',
  icon,
  primaryColor: '#4a154b',
  categories: ['communication', 'productivity'],
  version: 1,
  auth: slackAuth,
  triggers: [newMessage, newChannel, newEvent],
  actions: [findMessage, findUserByEmail, sendMessageToChannel, sendDirectMessage],
  dynamicData: { listChannels, listUsers },
  dynamicFields: { listFieldsAfterSendAsBot },
  http: { baseUrl: 'https://slack.com/api' },
});
