import type { Actor } from '../../domain/actor.js';
import type { ApiToken } from '../../domain/api-token.js';
import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export const makeListApiTokens =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor): Promise<Result<ApiToken[], DomainError>> => {
    const refused = adminOnly(actor);
    return refused ? err(refused) : ok(await repos.apiTokens.list());
  };
