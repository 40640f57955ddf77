import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { Role } from '../../domain/role.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export const makeListRoles =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor): Promise<Result<Role[], DomainError>> => {
    const refused = adminOnly(actor);
    return refused ? err(refused) : ok(await repos.roles.list());
  };
