import { defineApp } from '../sdk/index.js';
import { rabbitmqAuth } from './connection.js';
import { icon } from './icon.js';
import { newMessage } from './new-message.js';
import { publishMessage } from './publish-message.js';

export const rabbitmq = defineApp({
  key: 'rabbitmq',
  name: 'RabbitMQ',
  description: 'Start flows from the messages of a queue, and publish messages.',
  icon,
  primaryColor: '#ff6600',
  categories: ['messaging-and-queues'],
  version: 1,
  auth: rabbitmqAuth,
  triggers: [newMessage],
  actions: [publishMessage],
});
