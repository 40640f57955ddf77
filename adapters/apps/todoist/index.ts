import { defineApp } from '../sdk/index.js';
import { closeTask, createTask } from './actions.js';
import { todoistAuth } from './auth.js';
import { todoistDynamicData } from './dynamic-data.js';
import { icon } from './icon.js';
import { getActiveTasks, newCompletedTask } from './triggers.js';

export const todoist = defineApp({
  key: 'todoist',
  name: 'Todoist',
  description: 'Add and complete tasks, and start flows from new and completed tasks in Todoist.',
  icon,
  primaryColor: '#e44332',
  categories: ['productivity'],
  version: 1,
  auth: todoistAuth,
  triggers: [getActiveTasks, newCompletedTask],
  actions: [createTask, closeTask],
  dynamicData: todoistDynamicData,
  // Todoist's unified API v1: REST v2, which Automatisch used, answers 410 Gone now.
  http: { baseUrl: 'https://api.todoist.com/api/v1' },
});
