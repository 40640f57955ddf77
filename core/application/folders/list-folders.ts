import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Folder } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

/** Folders are personal: everyone sees only their own, administrators too. */
export const makeListFolders =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor): Promise<Result<Folder[], DomainError>> => {
    const refused = authorize(actor, 'read', 'Flow');
    return refused ? err(refused) : ok(await repos.folders.listByUser(actor.user.id));
  };
