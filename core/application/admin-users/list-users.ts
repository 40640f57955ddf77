import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { UserWithRole } from '../../domain/user.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export const makeListUsers =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor, page: PageRequest): Promise<Result<Page<UserWithRole>, DomainError>> => {
    const refused = adminOnly(actor);
    return refused ? err(refused) : ok(await repos.users.list(page));
  };
