import { defineApp } from '../sdk/index.js';
import { discordAuth } from './auth.js';
import { listChannels, listScheduledEvents } from './channels.js';
import { createScheduledEvent } from './create-scheduled-event.js';
import { createFields, fieldsFor, updateFields } from './event-fields.js';
import { icon } from './icon.js';
import { newMessage } from './new-message.js';
import { newScheduledEvent } from './new-scheduled-event.js';
import { sendMessageToChannel } from './send-message-to-channel.js';
import { updateScheduledEvent } from './update-scheduled-event.js';

export const discord = defineApp({
  key: 'discord',
  name: 'Discord',
  description: 'Post to a Discord server’s channels and run its scheduled events, as a bot.',
  icon,
  primaryColor: '#5865f2',
  categories: ['communication'],
  version: 1,
  auth: discordAuth,
  triggers: [newMessage, newScheduledEvent],
  actions: [sendMessageToChannel, createScheduledEvent, updateScheduledEvent],
  dynamicData: { listChannels, listScheduledEvents },
  dynamicFields: {
    listExternalScheduledEventFields: fieldsFor(createFields),
    listScheduledEventFieldsForUpdate: fieldsFor(updateFields),
  },
  http: { baseUrl: 'https://discord.com/api/v10' },
});
