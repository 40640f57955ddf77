import { defineApp } from '../sdk/index.js';
import { apiOf, jiraAuth } from './auth.js';
import { createIssue } from './create-issue.js';
import { createIssueComment } from './create-issue-comment.js';
import { listAssignableUsers, listIssueTypes, listProjects, listTransitions } from './dynamic-data.js';
import { icon } from './icon.js';
import { newIssues } from './new-issues.js';
import { transitionIssue } from './transition-issue.js';
import { updateIssue } from './update-issue.js';
import { updatedIssues } from './updated-issues.js';

export const jira = defineApp({
  key: 'jira',
  name: 'Jira',
  description: 'Create, comment on and move issues in Jira Cloud.',
  icon,
  primaryColor: '#0052cc',
  categories: ['productivity', 'developer-tools'],
  version: 1,
  auth: jiraAuth,
  triggers: [newIssues, updatedIssues],
  actions: [createIssue, createIssueComment, updateIssue, transitionIssue],
  dynamicData: { listProjects, listIssueTypes, listAssignableUsers, listTransitions },
  http: {
    // Every connection names its site: there is no Jira API without one.
    connectionBaseUrl: (auth) => apiOf(jiraAuth.read(auth).instanceUrl),
  },
});
