import { defineApp } from '../sdk/index.js';
import { insert, remove, sqlQuery, update } from './actions.js';
import { postgresAuth } from './connection.js';

export const postgresql = defineApp({
  key: 'postgresql',
  name: 'PostgreSQL',
  description: 'Query and change a PostgreSQL database.',
  iconUrl: '/apps/postgresql/assets/favicon.svg',
  primaryColor: '#336791',
  version: 1,
  auth: postgresAuth,
  triggers: [],
  actions: [sqlQuery, insert, update, remove],
});
