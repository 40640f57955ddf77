import type { Actor } from '../../domain/actor.js';
import { type DomainError, forbidden, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { Role } from '../../domain/role.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { catalogPermissions, type RoleInput } from './role-input.js';

/** A partial change: a key left out keeps its value; `description: null` clears the description. */
export type RoleChanges = { readonly [K in keyof RoleInput]?: RoleInput[K] | undefined };

export const makeUpdateRole =
  ({ uow, clock }: Pick<CoreDeps, 'uow' | 'clock'>) =>
  async (actor: Actor, roleId: string, changes: RoleChanges): Promise<Result<Role, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const permissions = changes.permissions ? catalogPermissions({ permissions: changes.permissions }) : undefined;
    if (permissions && !Array.isArray(permissions)) return err(permissions);
    return uow.run(async (tx) => {
      const role = await tx.roles.findById(roleId);
      if (!role) return err(notFound('Role'));
      if (role.isAdmin) return err(forbidden('The Admin role cannot be changed.'));
      await tx.roles.update(
        roleId,
        {
          name: changes.name?.trim() ?? role.name,
          description: changes.description === undefined ? role.description : changes.description,
          permissions: permissions ?? role.permissions,
        },
        clock.now(),
      );
      const updated = await tx.roles.findById(roleId);
      return updated ? ok(updated) : err(notFound('Role'));
    });
  };
