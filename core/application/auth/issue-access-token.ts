import type { Repositories } from '../../../ports/repositories.js';
import type { CoreDeps } from '../deps.js';

export interface IssuedAccessToken {
  readonly id: string;
  readonly token: string;
  readonly expiresAt: Date;
}

/** A new session: the token to present, and until when it works. */
export type SignedIn = Pick<IssuedAccessToken, 'token' | 'expiresAt'>;

/** Creates a session token for the user and returns it; only its hash is stored. */
export const issueAccessToken = async (
  { clock, ids, secrets, settings }: Pick<CoreDeps, 'clock' | 'ids' | 'secrets' | 'settings'>,
  repos: Pick<Repositories, 'accessTokens'>,
  userId: string,
): Promise<IssuedAccessToken> => {
  const token = secrets.generate();
  const now = clock.now();
  const issued = { id: ids.next(), token, expiresAt: new Date(now.getTime() + settings.accessTokenTtlMs) };
  await repos.accessTokens.insert({
    id: issued.id,
    userId,
    tokenHash: secrets.hash(token),
    expiresAt: issued.expiresAt,
    now,
  });
  return issued;
};
