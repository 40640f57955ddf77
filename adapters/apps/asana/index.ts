import { defineApp } from '../sdk/index.js';
import { asanaAuth } from './auth.js';
import { createProject } from './create-project.js';
import { createTask } from './create-task.js';
import { asanaDynamicData } from './dynamic-data.js';
import { findProject, findTaskInProject } from './find.js';
import { icon } from './icon.js';
import { newTaskEvent } from './instant.js';
import { completedTask, newProject, newTask } from './triggers.js';

export const asana = defineApp({
  key: 'asana',
  name: 'Asana',
  description:
    'Create and find tasks and projects, and start flows from new and completed tasks and new projects in Asana.',
  icon,
  primaryColor: '#690031',
  categories: ['productivity'],
  version: 1,
  auth: asanaAuth,
  triggers: [newTask, completedTask, newProject, newTaskEvent],
  actions: [createProject, createTask, findProject, findTaskInProject],
  dynamicData: asanaDynamicData,
  http: { baseUrl: 'https://app.asana.com/api/1.0' },
});
