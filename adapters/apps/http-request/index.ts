import { defineApp, noAuth } from '../sdk/index.js';
import { customRequest } from './custom-request.js';
import { icon } from './icon.js';

export const httpRequest = defineApp({
  key: 'http-request',
  name: 'HTTP Request',
  description: 'Call any HTTP API.',
  icon,
  primaryColor: '#0ea5e9',
  categories: ['developer-tools'],
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [customRequest],
});
