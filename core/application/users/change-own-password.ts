import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { UserWithRole } from '../../domain/user.js';
import { ownAccountOnly } from '../../policy/own-account.js';
import type { CoreDeps } from '../deps.js';

export interface ChangeOwnPasswordInput {
  readonly userId: string;
  readonly currentPassword: string;
  readonly password: string;
}

export const makeChangeOwnPassword =
  ({ repos, uow, clock, passwords }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'passwords'>) =>
  async (actor: Actor, input: ChangeOwnPasswordInput): Promise<Result<UserWithRole, DomainError>> => {
    const refused = ownAccountOnly(actor, input.userId);
    if (refused) return err(refused);
    const found = await repos.users.findCredentialsById(actor.user.id);
    const matches = found?.passwordHash ? await passwords.verify(found.passwordHash, input.currentPassword) : false;
    if (!matches) return err(invalidInput({ currentPassword: ['is incorrect.'] }));
    const passwordHash = await passwords.hash(input.password);
    return uow.run(async (tx) => {
      const now = clock.now();
      await tx.users.updatePasswordHash(actor.user.id, passwordHash, now);
      // Other sessions end: whoever knew the old password is signed out; this session stays.
      const ownSession = actor.credential.kind === 'access-token' ? actor.credential.tokenId : undefined;
      await tx.accessTokens.revokeAllOfUser(actor.user.id, now, ownSession);
      const user = await tx.users.findById(actor.user.id);
      if (!user) throw new Error('The user vanished inside their own password change.');
      return ok(user);
    });
  };
