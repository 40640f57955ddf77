import { defineApp, noAuth } from '../sdk/index.js';
import { continueIfMatches } from './continue-if-matches.js';

export const filter = defineApp({
  key: 'filter',
  name: 'Filter',
  description: 'Continue a flow only when conditions match.',
  iconUrl: '/apps/filter/assets/favicon.svg',
  primaryColor: '#f59e0b',
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [continueIfMatches],
});
