import { defineApp } from '../sdk/index.js';
import { insert, remove, sqlQuery, update } from './actions.js';
import { postgresAuth } from './connection.js';
import { icon } from './icon.js';

export const postgresql = defineApp({
  key: 'postgresql',
  name: 'PostgreSQL',
  description: 'Query and change a PostgreSQL database.',
  icon,
  primaryColor: '#336791',
  version: 1,
  auth: postgresAuth,
  triggers: [],
  actions: [sqlQuery, insert, update, remove],
});
