import { defineApp, describeArguments } from '../sdk/index.js';
import { createFolder, createList, createTask, findTaskById } from './actions.js';
import { workspaceId } from './arguments.js';
import { clickupAuth } from './auth.js';
import { clickupDynamicData } from './dynamic-data.js';
import { icon } from './icon.js';
import { newFolder, newLists, newTasks, updatedTask } from './webhooks.js';

export const clickup = defineApp({
  key: 'clickup',
  name: 'ClickUp',
  description:
    'Create tasks, lists and folders, find tasks, and start flows from new and changed tasks, lists and folders in ClickUp.',
  icon,
  primaryColor: '#7b68ee',
  categories: ['productivity'],
  version: 1,
  auth: clickupAuth,
  triggers: [newFolder, newLists, newTasks, updatedTask],
  actions: [createFolder, createList, createTask, findTaskById],
  dynamicData: clickupDynamicData,
  dynamicFields: {
    // A custom task id is unique in its workspace only: ClickUp then wants the workspace too.
    listFieldsWhenUsingCustomId: async (ctx) =>
      String(ctx.parameters.useCustomId) === 'true' ? describeArguments({ workspaceId }) : [],
  },
  http: { baseUrl: 'https://api.clickup.com/api/v2' },
});
