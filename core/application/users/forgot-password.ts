import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { RESET_PASSWORD_TOKEN_TTL_MS } from '../../domain/tokens.js';
import { normalizeEmail } from '../../domain/user.js';
import { checkRateLimits } from '../auth/rate-limit.js';
import type { CoreDeps } from '../deps.js';
import { issueMailedToken } from './mailed-tokens.js';
import { resetPasswordMail } from './reset-password-mail.js';

export interface ForgotPasswordInput {
  readonly email: string;
  readonly clientAddress: string;
}

/** Always succeeds for a well-formed request, so the answer says nothing about who has an account. */
export const makeForgotPassword =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'secrets' | 'mailer' | 'rateLimiter' | 'settings'>) =>
  async (input: ForgotPasswordInput): Promise<Result<void, DomainError>> => {
    const email = normalizeEmail(input.email);
    const { rateLimits } = deps.settings;
    const limited = await checkRateLimits(deps.rateLimiter, [
      [`forgot-password:account:${email}`, rateLimits.forgotPassword],
      [`forgot-password:address:${input.clientAddress}`, rateLimits.forgotPasswordPerAddress],
    ]);
    if (limited) return err(limited);

    const found = await deps.repos.users.findCredentialsByEmail(email);
    if (found?.user.status !== 'active') return ok(undefined);
    const user = found.user;
    const token = await deps.uow.run(async (tx) => {
      const now = deps.clock.now();
      await tx.userTokens.discardOutstanding(user.id, 'reset-password', now);
      return ok(
        await issueMailedToken(deps, tx, {
          userId: user.id,
          kind: 'reset-password',
          ttlMs: RESET_PASSWORD_TOKEN_TTL_MS,
          now,
        }),
      );
    });
    if (!token.ok) return token;
    await deps.mailer.send(resetPasswordMail(user, `${deps.settings.webAppUrl}/reset-password?token=${token.value}`));
    return ok(undefined);
  };
