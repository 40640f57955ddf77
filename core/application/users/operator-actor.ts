import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { normalizeEmail } from '../../domain/user.js';
import type { CoreDeps } from '../deps.js';

/**
 * The actor for an operator's command run on the server as the active user with this email, with
 * that user's role and so their permissions: shell access to the server is the credential.
 */
export const makeOperatorActor =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (email: string): Promise<Result<Actor, DomainError>> => {
    const found = await repos.users.findCredentialsByEmail(normalizeEmail(email));
    const user = found ? await repos.users.findById(found.user.id) : null;
    if (user?.status !== 'active') return err(notFound('User'));
    return ok({ user, credential: { kind: 'operator', tokenId: '' } });
  };
