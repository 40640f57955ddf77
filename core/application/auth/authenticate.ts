import type { Actor } from '../../domain/actor.js';
import type { CoreDeps } from '../deps.js';

export type PresentedCredential = { readonly kind: 'access-token' | 'api-token'; readonly token: string };

/**
 * Resolves a presented credential to the actor it speaks for, or null. An API token speaks for the
 * administrator who created it, with that user's current role: demoting them narrows the token too.
 */
export const makeAuthenticate =
  ({ repos, clock, secrets }: Pick<CoreDeps, 'repos' | 'clock' | 'secrets'>) =>
  async ({ kind, token }: PresentedCredential): Promise<Actor | null> => {
    if (token.length === 0 || token.length > 512) return null;
    const tokenHash = secrets.hash(token);
    const found =
      kind === 'access-token'
        ? await repos.accessTokens.findUsable(tokenHash, clock.now())
        : await repos.apiTokens.findByHash(tokenHash);
    if (!found) return null;
    const user = await repos.users.findById(found.userId);
    if (user?.status !== 'active') return null;
    return { user, credential: { kind, tokenId: found.id } };
  };
