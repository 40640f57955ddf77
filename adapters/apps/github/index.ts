import { defineApp } from '../sdk/index.js';
import { addLabelsToIssue } from './add-labels-to-issue.js';
import { GITHUB_API, githubAuth } from './auth.js';
import { createIssue } from './create-issue.js';
import { createIssueComment } from './create-issue-comment.js';
import { createPullRequest } from './create-pull-request.js';
import { listBranches, listLabels, listRepos } from './dynamic-data.js';
import { icon } from './icon.js';
import { newIssues } from './new-issues.js';
import { newPullRequestEvent } from './new-pull-request-event.js';
import { newPullRequests } from './new-pull-requests.js';
import { newStargazers } from './new-stargazers.js';
import { newWatchers } from './new-watchers.js';
import { updateIssue } from './update-issue.js';

export const github = defineApp({
  key: 'github',
  name: 'GitHub',
  description: 'Work with issues, pull requests and repositories on GitHub.',
  icon,
  primaryColor: '#000000',
  categories: ['developer-tools'],
  version: 1,
  auth: githubAuth,
  triggers: [newIssues, newPullRequests, newStargazers, newWatchers, newPullRequestEvent],
  actions: [createIssue, createIssueComment, updateIssue, addLabelsToIssue, createPullRequest],
  dynamicData: { listRepos, listLabels, listBranches },
  http: {
    baseUrl: GITHUB_API,
    // GitHub Enterprise Server: the API the administrator's OAuth client names.
    connectionBaseUrl: (auth) => (auth.client ? githubAuth.readClient(auth.client).apiBaseUrl : undefined),
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  },
});
