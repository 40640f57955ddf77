import type { DomainError } from '../../domain/errors.js';
import type { Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { redeemWithPassword } from './mailed-tokens.js';

export interface ResetPasswordInput {
  readonly token: string;
  readonly password: string;
}

export const makeResetPassword =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'passwords' | 'secrets'>) =>
  (input: ResetPasswordInput): Promise<Result<void, DomainError>> =>
    redeemWithPassword(deps, 'reset-password', input, async (tx, userId, passwordHash, now) => {
      await tx.users.updatePasswordHash(userId, passwordHash, now);
      // Whoever held a session may be the reason for the reset: every session ends.
      await tx.accessTokens.revokeAllOfUser(userId, now);
    });
