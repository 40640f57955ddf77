import { defineApp } from '../sdk/index.js';
import { mondayAuth } from './auth.js';
import { createBoard, createColumn } from './board-actions.js';
import { mondayDynamicData } from './dynamic-data.js';
import { icon } from './icon.js';
import { newBoardEvent } from './instant.js';
import { createItem, createUpdate } from './item-actions.js';
import { newBoard, newItem, newUsers } from './triggers.js';

export const monday = defineApp({
  key: 'monday',
  name: 'Monday',
  description:
    'Create boards, columns, items and updates, and start flows from new boards, items and users on monday.com.',
  icon,
  primaryColor: '#f62b54',
  categories: ['productivity'],
  version: 1,
  auth: mondayAuth,
  triggers: [newBoard, newUsers, newItem, newBoardEvent],
  actions: [createBoard, createColumn, createItem, createUpdate],
  dynamicData: mondayDynamicData,
  http: {
    baseUrl: 'https://api.monday.com/v2',
    // A pinned version: monday changes shapes between versions.
    headers: { 'api-version': '2025-04' },
  },
});
