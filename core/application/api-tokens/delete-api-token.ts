import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export const makeDeleteApiToken =
  ({ uow }: Pick<CoreDeps, 'uow'>) =>
  async (actor: Actor, apiTokenId: string): Promise<Result<void, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    return uow.run(async (tx) => ((await tx.apiTokens.delete(apiTokenId)) ? ok(undefined) : err(notFound('ApiToken'))));
  };
