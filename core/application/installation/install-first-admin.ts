import { type DomainError, forbidden } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { ADMIN_ROLE_NAME } from '../../domain/role.js';
import { normalizeEmail, type UserWithRole } from '../../domain/user.js';
import type { CoreDeps } from '../deps.js';

export interface InstallFirstAdminInput {
  readonly email: string;
  readonly password: string;
  readonly fullName: string;
}

export const alreadyInstalled = () => forbidden('Installation is already completed.');

export const makeInstallFirstAdmin =
  ({ repos, uow, clock, ids, passwords }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'passwords'>) =>
  async (input: InstallFirstAdminInput): Promise<Result<UserWithRole, DomainError>> => {
    // Cheap refusal first, so calls after installation cost no password hashing.
    if ((await repos.config.get()).installationCompleted) return err(alreadyInstalled());
    const passwordHash = await passwords.hash(input.password);
    return uow.run(async (tx) => {
      // The claim is the guard against two concurrent installations: only one flips the flag.
      if (!(await tx.config.claimInstallation(clock.now()))) return err(alreadyInstalled());
      const adminRole = await tx.roles.findByName(ADMIN_ROLE_NAME);
      if (!adminRole) throw new Error('The Admin role is missing: migrations did not seed it.');
      const user = await tx.users.insert({
        id: ids.next(),
        email: normalizeEmail(input.email),
        fullName: input.fullName.trim(),
        passwordHash,
        roleId: adminRole.id,
        status: 'active',
        now: clock.now(),
      });
      return ok({ ...user, role: adminRole });
    });
  };
