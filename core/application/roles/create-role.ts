import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { Role } from '../../domain/role.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { catalogPermissions, type RoleInput } from './role-input.js';

export const makeCreateRole =
  ({ uow, clock, ids }: Pick<CoreDeps, 'uow' | 'clock' | 'ids'>) =>
  async (actor: Actor, input: RoleInput): Promise<Result<Role, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const permissions = catalogPermissions(input);
    if (!Array.isArray(permissions)) return err(permissions);
    return uow.run(async (tx) =>
      ok(
        await tx.roles.insert({
          id: ids.next(),
          name: input.name.trim(),
          description: input.description ?? null,
          permissions,
          now: clock.now(),
        }),
      ),
    );
  };
