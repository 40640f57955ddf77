import type { Repositories } from '../../../ports/repositories.js';
import { type DomainError, invalidInput } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { UserTokenKind } from '../../domain/tokens.js';
import type { CoreDeps } from '../deps.js';

/** Creates a single-use token of `kind` for the user and returns it; only its hash is stored. */
export const issueMailedToken = async (
  { ids, secrets }: Pick<CoreDeps, 'ids' | 'secrets'>,
  tx: Repositories,
  token: { readonly userId: string; readonly kind: UserTokenKind; readonly ttlMs: number; readonly now: Date },
): Promise<string> => {
  const secret = secrets.generate();
  await tx.userTokens.insert({
    id: ids.next(),
    userId: token.userId,
    kind: token.kind,
    tokenHash: secrets.hash(secret),
    expiresAt: new Date(token.now.getTime() + token.ttlMs),
    now: token.now,
  });
  return secret;
};

const invalidToken = () => invalidInput({ token: ['is invalid or expired.'] });

/**
 * Redeems a mailed token with a new password: `apply` runs in the same transaction as the
 * consumption, so a token sets a password exactly once even when two requests race.
 */
export const redeemWithPassword = async (
  { repos, uow, clock, passwords, secrets }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'passwords' | 'secrets'>,
  kind: UserTokenKind,
  input: { readonly token: string; readonly password: string },
  apply: (tx: Repositories, userId: string, passwordHash: string, now: Date) => Promise<void>,
): Promise<Result<void, DomainError>> => {
  const tokenHash = secrets.hash(input.token);
  // A cheap look first, so that guessing tokens does not buy password hashing on the server.
  if (!(await repos.userTokens.findUsableUserId(kind, tokenHash, clock.now()))) return err(invalidToken());
  const passwordHash = await passwords.hash(input.password);
  return uow.run(async (tx) => {
    const now = clock.now();
    const userId = await tx.userTokens.consume(kind, tokenHash, now);
    if (!userId) return err(invalidToken());
    await apply(tx, userId, passwordHash, now);
    return ok(undefined);
  });
};
