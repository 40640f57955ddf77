import { defineTrigger } from '../sdk/index.js';
import { newestEntries } from './newest-entries.js';
import { repoArgument, repoPath } from './repo.js';

interface Star {
  readonly starred_at: string;
  readonly user: { readonly id: number } & Record<string, unknown>;
}

export const newStargazers = defineTrigger({
  key: 'newStargazers',
  name: 'New stargazers',
  description: 'Starts the flow for each user who stars a repository.',
  type: 'polling',
  arguments: { repo: repoArgument(true, false) },
  async run(ctx) {
    // This media type adds when each star was given.
    const stars = await newestEntries<Star>(ctx, `${repoPath(ctx.parameters.repo)}/stargazers`, {
      accept: 'application/vnd.github.star+json',
    });
    // A user who stars again after unstarring starts the flow again.
    return stars.map((star) => ({
      id: `${star.user.id}:${star.starred_at}`,
      data: { ...star.user, starred_at: star.starred_at },
    }));
  },
});
