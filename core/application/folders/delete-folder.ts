import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnFolder } from './own-folder.js';

/** Deletes one of the caller's folders; the flows in it stay, uncategorized. */
export const makeDeleteFolder =
  ({ repos, uow }: Pick<CoreDeps, 'repos' | 'uow'>) =>
  async (actor: Actor, folderId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadOwnFolder(repos, actor, folderId);
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) => {
      await tx.folders.delete(folderId);
      return ok(undefined);
    });
  };
