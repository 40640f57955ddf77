import { restAction, text } from '../sdk/index.js';
import { repoArgument, repoPath } from './repo.js';

export const createIssue = restAction({
  key: 'createIssue',
  name: 'Create issue',
  description: 'Opens an issue in a repository.',
  arguments: {
    repo: repoArgument(true),
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    body: text({ label: 'Body', acceptsVariables: true }),
  },
  request: ({ repo, title, body }) => ({
    method: 'POST',
    path: `${repoPath(repo)}/issues`,
    body: { title, body },
  }),
});
