import { defineTrigger } from '../sdk/index.js';
import { newestEntries } from './newest-entries.js';
import { repoArgument, repoPath } from './repo.js';

export const newWatchers = defineTrigger({
  key: 'newWatchers',
  name: 'New watchers',
  description: 'Starts the flow for each user who watches a repository.',
  type: 'polling',
  arguments: { repo: repoArgument(true, false) },
  async run(ctx) {
    const watchers = await newestEntries<{ id: number }>(ctx, `${repoPath(ctx.parameters.repo)}/subscribers`);
    return watchers.map((user) => ({ id: String(user.id), data: user }));
  },
});
