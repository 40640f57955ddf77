import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';

export const makeRevokeAccessToken =
  ({ repos, clock, secrets }: Pick<CoreDeps, 'repos' | 'clock' | 'secrets'>) =>
  async (actor: Actor, token: string): Promise<Result<void, DomainError>> => {
    const revoked = await repos.accessTokens.revokeOwn(actor.user.id, secrets.hash(token), clock.now());
    return revoked ? ok(undefined) : err(notFound('AccessToken'));
  };
