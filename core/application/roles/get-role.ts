import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { Role } from '../../domain/role.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export const makeGetRole =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor, roleId: string): Promise<Result<Role, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const role = await repos.roles.findById(roleId);
    return role ? ok(role) : err(notFound('Role'));
  };
