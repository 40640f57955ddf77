import type { Actor } from '../../domain/actor.js';
import { type DomainError, forbidden, notFound, roleInUse, roleIsSamlDefault } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export const makeDeleteRole =
  ({ uow }: Pick<CoreDeps, 'uow'>) =>
  async (actor: Actor, roleId: string): Promise<Result<void, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    return uow.run(async (tx) => {
      const role = await tx.roles.findById(roleId);
      if (!role) return err(notFound('Role'));
      if (role.isAdmin) return err(forbidden('The Admin role cannot be deleted.'));
      const users = await tx.roles.countUsers(roleId);
      if (users > 0) return err(roleInUse(users));
      const providers = await tx.samlProviders.countByDefaultRole(roleId);
      if (providers > 0) return err(roleIsSamlDefault(providers));
      await tx.roles.delete(roleId);
      return ok(undefined);
    });
  };
