import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput, lastAdmin, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { normalizeEmail, type UserWithRole } from '../../domain/user.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export interface UpdateUserInput {
  readonly fullName?: string | undefined;
  readonly email?: string | undefined;
  readonly roleId?: string | undefined;
}

export const makeUpdateUser =
  ({ uow, clock }: Pick<CoreDeps, 'uow' | 'clock'>) =>
  async (actor: Actor, userId: string, input: UpdateUserInput): Promise<Result<UserWithRole, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    return uow.run(async (tx) => {
      const user = await tx.users.findById(userId);
      if (!user) return err(notFound('User'));
      if (input.roleId !== undefined && input.roleId !== user.roleId) {
        const role = await tx.roles.findById(input.roleId);
        if (!role) return err(invalidInput({ roleId: ['does not exist.'] }));
        const demotesAnAdmin = user.role.isAdmin && !role.isAdmin && user.status === 'active';
        if (demotesAnAdmin && (await tx.users.countActiveAdmins()) <= 1) return err(lastAdmin());
      }
      await tx.users.updateProfile(
        userId,
        {
          ...(input.fullName !== undefined && { fullName: input.fullName.trim() }),
          ...(input.email !== undefined && { email: normalizeEmail(input.email) }),
          ...(input.roleId !== undefined && { roleId: input.roleId }),
        },
        clock.now(),
      );
      const updated = await tx.users.findById(userId);
      return updated ? ok(updated) : err(notFound('User'));
    });
  };
