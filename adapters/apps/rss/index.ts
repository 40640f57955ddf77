import { defineApp, noAuth } from '../sdk/index.js';
import { icon } from './icon.js';
import { newItemsInFeed } from './new-items-in-feed.js';

export const rss = defineApp({
  key: 'rss',
  name: 'RSS',
  description: 'Start flows from new items in RSS and Atom feeds.',
  icon,
  primaryColor: '#f97316',
  categories: ['utilities'],
  version: 1,
  auth: noAuth(),
  triggers: [newItemsInFeed],
  actions: [],
});
