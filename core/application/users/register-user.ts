import { type DomainError, forbidden } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { USER_ROLE_NAME } from '../../domain/role.js';
import { normalizeEmail, type UserWithRole } from '../../domain/user.js';
import type { CoreDeps } from '../deps.js';

export interface RegisterUserInput {
  readonly fullName: string;
  readonly email: string;
  readonly password: string;
}

export const makeRegisterUser =
  ({ repos, uow, clock, ids, passwords }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'passwords'>) =>
  async (input: RegisterUserInput): Promise<Result<UserWithRole, DomainError>> => {
    if (!(await repos.config.get()).registrationEnabled) {
      return err(forbidden('Registration is disabled on this instance.'));
    }
    const passwordHash = await passwords.hash(input.password);
    return uow.run(async (tx) => {
      const role = await tx.roles.findByName(USER_ROLE_NAME);
      if (!role) return err(forbidden('Registration is unavailable: the User role does not exist.'));
      const user = await tx.users.insert({
        id: ids.next(),
        email: normalizeEmail(input.email),
        fullName: input.fullName.trim(),
        passwordHash,
        roleId: role.id,
        status: 'active',
        now: clock.now(),
      });
      return ok({ ...user, role });
    });
  };
