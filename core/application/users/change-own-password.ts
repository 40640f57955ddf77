import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { UserWithRole } from '../../domain/user.js';
import { ownAccountOnly } from '../../policy/own-account.js';
import { checkRateLimits } from '../auth/rate-limit.js';
import type { CoreDeps } from '../deps.js';

export interface ChangeOwnPasswordInput {
  readonly userId: string;
  readonly currentPassword: string;
  readonly password: string;
}

/**
 * A stolen session must not become a way to guess the account's password (and then take the
 * account): wrong current passwords count against the account's sign-in budget, under a key of
 * their own, and a right one clears it.
 */
export const makeChangeOwnPassword =
  ({
    repos,
    uow,
    clock,
    passwords,
    rateLimiter,
    settings,
  }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'passwords' | 'rateLimiter' | 'settings'>) =>
  async (actor: Actor, input: ChangeOwnPasswordInput): Promise<Result<UserWithRole, DomainError>> => {
    const refused = ownAccountOnly(actor, input.userId);
    if (refused) return err(refused);
    const attempts = `change-password:account:${actor.user.id}`;
    const limited = await checkRateLimits(rateLimiter, [[attempts, settings.rateLimits.signIn]]);
    if (limited) return err(limited);
    const found = await repos.users.findCredentialsById(actor.user.id);
    const matches = found?.passwordHash ? await passwords.verify(found.passwordHash, input.currentPassword) : false;
    if (!matches) return err(invalidInput({ currentPassword: ['is incorrect.'] }));
    await rateLimiter.reset(attempts);
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
