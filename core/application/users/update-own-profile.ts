import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { normalizeEmail, type UserWithRole } from '../../domain/user.js';
import { ownAccountOnly } from '../../policy/own-account.js';
import type { CoreDeps } from '../deps.js';

export interface UpdateOwnProfileInput {
  readonly userId: string;
  readonly fullName?: string | undefined;
  readonly email?: string | undefined;
}

export const makeUpdateOwnProfile =
  ({ uow, clock }: Pick<CoreDeps, 'uow' | 'clock'>) =>
  async (actor: Actor, input: UpdateOwnProfileInput): Promise<Result<UserWithRole, DomainError>> => {
    const refused = ownAccountOnly(actor, input.userId);
    if (refused) return err(refused);
    return uow.run(async (tx) => {
      await tx.users.updateProfile(
        input.userId,
        {
          ...(input.fullName !== undefined && { fullName: input.fullName.trim() }),
          ...(input.email !== undefined && { email: normalizeEmail(input.email) }),
        },
        clock.now(),
      );
      const user = await tx.users.findById(input.userId);
      if (!user) throw new Error('The updated user vanished inside its own transaction.');
      return ok(user);
    });
  };
