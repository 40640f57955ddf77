import type { Repositories } from '../../../ports/repositories.js';
import type { CoreDeps } from '../deps.js';

/** Creates a session token for the user and returns it; only its hash is stored. */
export const issueAccessToken = async (
  { clock, ids, secrets, settings }: Pick<CoreDeps, 'clock' | 'ids' | 'secrets' | 'settings'>,
  repos: Pick<Repositories, 'accessTokens'>,
  userId: string,
): Promise<string> => {
  const token = secrets.generate();
  const now = clock.now();
  await repos.accessTokens.insert({
    id: ids.next(),
    userId,
    tokenHash: secrets.hash(token),
    expiresAt: new Date(now.getTime() + settings.accessTokenTtlMs),
    now,
  });
  return token;
};
