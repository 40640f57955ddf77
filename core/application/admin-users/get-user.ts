import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { UserWithRole } from '../../domain/user.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export const makeGetUser =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor, userId: string): Promise<Result<UserWithRole, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const user = await repos.users.findById(userId);
    return user ? ok(user) : err(notFound('User'));
  };
