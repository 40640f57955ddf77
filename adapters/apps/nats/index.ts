import { defineApp } from '../sdk/index.js';
import { natsAuth } from './connection.js';
import { icon } from './icon.js';
import { newMessage } from './new-message.js';
import { newStreamMessage } from './new-stream-message.js';
import { publishMessage, publishToStream } from './publish.js';

export const nats = defineApp({
  key: 'nats',
  name: 'NATS',
  description: 'Receive and publish messages on NATS subjects and JetStream streams.',
  icon,
  primaryColor: '#27aae1',
  categories: ['messaging-and-queues'],
  version: 1,
  auth: natsAuth,
  triggers: [newMessage, newStreamMessage],
  actions: [publishMessage, publishToStream],
});
