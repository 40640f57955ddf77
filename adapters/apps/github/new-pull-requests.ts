import { pollingTrigger } from '../sdk/index.js';
import { repoArgument, repoPath } from './repo.js';

export const newPullRequests = pollingTrigger({
  key: 'newPullRequests',
  name: 'New pull requests',
  description: 'Starts the flow for each pull request opened in a repository.',
  arguments: { repo: repoArgument(true, false) },
  request: ({ repo }) => ({
    path: `${repoPath(repo)}/pulls`,
    query: { state: 'all', sort: 'created', direction: 'desc', per_page: 100 },
  }),
  items: '',
  id: (pull: { id: number }) => pull.id,
});
