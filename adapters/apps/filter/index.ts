import { defineApp, noAuth } from '../sdk/index.js';
import { continueIfMatches } from './continue-if-matches.js';
import { icon } from './icon.js';

export const filter = defineApp({
  key: 'filter',
  name: 'Filter',
  description: 'Continue a flow only when conditions match.',
  icon,
  primaryColor: '#f59e0b',
  categories: ['flow-control'],
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [continueIfMatches],
});
