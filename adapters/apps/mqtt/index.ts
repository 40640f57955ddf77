import { defineApp } from '../sdk/index.js';
import { mqttAuth } from './connection.js';
import { icon } from './icon.js';
import { newMessage } from './new-message.js';
import { publishMessage } from './publish-message.js';

export const mqtt = defineApp({
  key: 'mqtt',
  name: 'MQTT',
  description: 'Receive and publish messages through an MQTT broker.',
  icon,
  primaryColor: '#660066',
  categories: ['messaging-and-queues'],
  version: 1,
  auth: mqttAuth,
  triggers: [newMessage],
  actions: [publishMessage],
});
