import { restAction, text } from '../sdk/index.js';
import { issueNumberArgument } from './issue-number.js';
import { repoArgument, repoPath } from './repo.js';

export const createIssueComment = restAction({
  key: 'createIssueComment',
  name: 'Comment on issue',
  description: 'Adds a comment to an issue or a pull request.',
  arguments: {
    repo: repoArgument(true),
    issueNumber: issueNumberArgument(),
    body: text({ label: 'Comment', required: true, acceptsVariables: true }),
  },
  request: ({ repo, issueNumber, body }) => ({
    method: 'POST',
    path: `${repoPath(repo)}/issues/${issueNumber}/comments`,
    body: { body },
  }),
});
