import { type DomainError, invalidCredentials } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { normalizeEmail } from '../../domain/user.js';
import type { CoreDeps } from '../deps.js';
import { issueAccessToken, type SignedIn } from './issue-access-token.js';
import { checkRateLimits } from './rate-limit.js';

export interface SignInInput {
  readonly email: string;
  readonly password: string;
  readonly clientAddress: string;
}

/**
 * Only failures count against the budgets. Counting the account on its own would let anyone lock
 * its owner out with ten wrong guesses; counted per account and address together, a guesser locks
 * out only their own address, and the per-address budget stops one address trying many accounts.
 * A correct password resets its account-and-address count (typos before it are forgiven) and
 * gives back its own attempt at the address.
 */
export const makeSignIn =
  (deps: Pick<CoreDeps, 'repos' | 'clock' | 'ids' | 'passwords' | 'secrets' | 'rateLimiter' | 'settings'>) =>
  async (input: SignInInput): Promise<Result<SignedIn, DomainError>> => {
    const email = normalizeEmail(input.email);
    const { rateLimits } = deps.settings;
    const accountAtAddress = `sign-in:account-address:${JSON.stringify([email, input.clientAddress])}`;
    const address = `sign-in:address:${input.clientAddress}`;
    // Counted before the password is checked, so that attempts sent at once cannot all get through.
    const limited = await checkRateLimits(deps.rateLimiter, [
      [accountAtAddress, rateLimits.signIn],
      [address, rateLimits.signInPerAddress],
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
    await deps.rateLimiter.reset(accountAtAddress);
    await deps.rateLimiter.refund(address);
    const { token, expiresAt } = await issueAccessToken(deps, deps.repos, found.user.id);
    return ok({ token, expiresAt });
  };
