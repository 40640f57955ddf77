import { type DomainError, invalidCredentials } from '../../domain/errors.js';
import { RATE_LIMITS } from '../../domain/rate-limits.js';
import { err, ok, type Result } from '../../domain/result.js';
import { normalizeEmail } from '../../domain/user.js';
import type { CoreDeps } from '../deps.js';
import { issueAccessToken } from './issue-access-token.js';
import { checkRateLimits } from './rate-limit.js';

export interface SignInInput {
  readonly email: string;
  readonly password: string;
  readonly clientAddress: string;
}

export const makeSignIn =
  (deps: Pick<CoreDeps, 'repos' | 'clock' | 'ids' | 'passwords' | 'secrets' | 'rateLimiter' | 'settings'>) =>
  async (input: SignInInput): Promise<Result<{ token: string }, DomainError>> => {
    const email = normalizeEmail(input.email);
    const limited = await checkRateLimits(deps.rateLimiter, [
      [`sign-in:account:${email}`, RATE_LIMITS.signInPerAccount],
      [`sign-in:address:${input.clientAddress}`, RATE_LIMITS.signInPerAddress],
    ]);
    if (limited) return err(limited);

    const found = await deps.repos.users.findCredentialsByEmail(email);
    if (!found?.passwordHash || found.user.status !== 'active') {
      await deps.passwords.verifyDummy(input.password);
      return err(invalidCredentials());
    }
    if (!(await deps.passwords.verify(found.passwordHash, input.password))) {
      return err(invalidCredentials());
    }
    const { token } = await issueAccessToken(deps, deps.repos, found.user.id);
    return ok({ token });
  };
