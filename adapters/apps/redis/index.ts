import { defineApp } from '../sdk/index.js';
import {
  addToStream,
  deleteKey,
  getValue,
  increment,
  popFromList,
  publishMessage,
  pushToList,
  setValue,
} from './actions.js';
import { redisAuth } from './connection.js';
import { icon } from './icon.js';
import { newPubSubMessage } from './new-pubsub-message.js';
import { newStreamEntry } from './new-stream-entry.js';

export const redis = defineApp({
  key: 'redis',
  name: 'Redis',
  description: 'Read and write keys, lists and streams, publish messages, and start flows from streams and channels.',
  icon,
  primaryColor: '#dc382d',
  categories: ['data-and-databases', 'messaging-and-queues'],
  version: 1,
  auth: redisAuth,
  triggers: [newStreamEntry, newPubSubMessage],
  actions: [getValue, setValue, deleteKey, increment, publishMessage, addToStream, pushToList, popFromList],
});
