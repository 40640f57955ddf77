import { defineApp } from '../sdk/index.js';
import { insert, remove, sqlQuery, update } from './actions.js';
import { postgresAuth } from './connection.js';
import { icon } from './icon.js';
import { newNotification } from './new-notification.js';
import { newRow } from './new-row.js';

export const postgresql = defineApp({
  key: 'postgresql',
  name: 'PostgreSQL',
  description: 'Query and change a PostgreSQL database, and start flows from its notifications and new rows.',
  icon,
  primaryColor: '#336791',
  categories: ['data-and-databases'],
  version: 1,
  auth: postgresAuth,
  triggers: [newNotification, newRow],
  actions: [sqlQuery, insert, update, remove],
});
