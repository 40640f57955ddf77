import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { normalizeEmail, type UserWithRole } from '../../domain/user.js';
import type { CoreDeps } from '../deps.js';

const PER_PAGE = 100;

/** The administrator who installed the instance, or the earliest one still active. */
const firstActiveAdmin = async ({ repos }: Pick<CoreDeps, 'repos'>): Promise<UserWithRole | null> => {
  for (let page = 1; ; page += 1) {
    const users = await repos.users.list({ page, perPage: PER_PAGE });
    const admin = users.items.find((user) => user.role.isAdmin && user.status === 'active');
    if (admin) return admin;
    if (page * PER_PAGE >= users.total) return null;
  }
};

/**
 * The actor for an operator's command run on the server: shell access to the server is the
 * credential. As the active user with this email, with that user's role and so their
 * permissions; without an email, as the instance's administrator (the earliest active one), for
 * the commands that look at the whole instance.
 */
export const makeOperatorActor =
  (deps: Pick<CoreDeps, 'repos'>) =>
  async (email?: string): Promise<Result<Actor, DomainError>> => {
    let user: UserWithRole | null;
    if (email === undefined) {
      user = await firstActiveAdmin(deps);
    } else {
      const found = await deps.repos.users.findCredentialsByEmail(normalizeEmail(email));
      user = found ? await deps.repos.users.findById(found.user.id) : null;
    }
    if (user?.status !== 'active') return err(notFound(email === undefined ? 'Administrator' : 'User'));
    return ok({ user, credential: { kind: 'operator', tokenId: '' } });
  };
