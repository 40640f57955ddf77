import type { Actor } from '../../domain/actor.js';
import { maskToken } from '../../domain/api-token.js';
import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export interface CreatedApiToken {
  readonly id: string;
  /** The only time the token is shown. */
  readonly token: string;
  readonly createdAt: Date;
}

export const makeCreateApiToken =
  ({ uow, clock, ids, secrets }: Pick<CoreDeps, 'uow' | 'clock' | 'ids' | 'secrets'>) =>
  async (actor: Actor): Promise<Result<CreatedApiToken, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const token = secrets.generate();
    return uow.run(async (tx) => {
      const created = await tx.apiTokens.insert({
        id: ids.next(),
        userId: actor.user.id,
        tokenHash: secrets.hash(token),
        maskedToken: maskToken(token),
        now: clock.now(),
      });
      return ok({ id: created.id, token, createdAt: created.createdAt });
    });
  };
