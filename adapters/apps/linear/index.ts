import { defineApp } from '../sdk/index.js';
import { linearAuth } from './auth.js';
import { createIssue } from './create-issue.js';
import { createIssueComment } from './create-issue-comment.js';
import { listLabels, listTeams, listUsers, listWorkflowStates } from './dynamic-data.js';
import { icon } from './icon.js';
import { issueEvent } from './issue-event.js';
import { newIssues, updatedIssues } from './issue-triggers.js';
import { updateIssue } from './update-issue.js';

export const linear = defineApp({
  key: 'linear',
  name: 'Linear',
  description: 'Create, update and comment on Linear issues, and start flows from new or changed ones.',
  icon,
  primaryColor: '#5e6ad2',
  categories: ['productivity', 'developer-tools'],
  version: 1,
  auth: linearAuth,
  triggers: [issueEvent, newIssues, updatedIssues],
  actions: [createIssue, updateIssue, createIssueComment],
  dynamicData: { listTeams, listUsers, listWorkflowStates, listLabels },
  // The GraphQL endpoint is <base>/graphql.
  http: { baseUrl: 'https://api.linear.app' },
});
