import { defineApp } from '../sdk/index.js';
import { GITLAB_COM, gitlabAuth, instanceOf } from './auth.js';
import { createIssue } from './create-issue.js';
import { createIssueComment } from './create-issue-comment.js';
import { createMergeRequest } from './create-merge-request.js';
import { listBranches, listProjects } from './dynamic-data.js';
import { projectHookTriggers } from './hook-triggers.js';
import { icon } from './icon.js';
import { newCommits } from './new-commits.js';
import { newIssues } from './new-issues.js';
import { newMergeRequests } from './new-merge-requests.js';
import { updateIssue } from './update-issue.js';

export const gitlab = defineApp({
  key: 'gitlab',
  name: 'GitLab',
  description: 'Work with issues, merge requests and commits on gitlab.com or your own GitLab server.',
  icon,
  primaryColor: '#fc6d26',
  categories: ['developer-tools'],
  version: 1,
  auth: gitlabAuth,
  // Automatisch's instant triggers, then polling ones.
  triggers: [...projectHookTriggers, newIssues, newMergeRequests, newCommits],
  actions: [createIssue, createIssueComment, updateIssue, createMergeRequest],
  dynamicData: { listProjects, listBranches },
  http: {
    baseUrl: `${GITLAB_COM}/api/v4`,
    // A self-managed server, as the connection's OAuth client names it; gitlab.com (or
    // APP_BASE_URL_GITLAB) otherwise.
    connectionBaseUrl: (auth) => {
      const client = auth.client ? gitlabAuth.readClient(auth.client) : null;
      return client?.instanceUrl ? `${instanceOf(client)}/api/v4` : undefined;
    },
  },
});
