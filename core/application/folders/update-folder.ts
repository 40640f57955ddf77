import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { Folder } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnFolder } from './own-folder.js';

export const makeUpdateFolder =
  ({ repos, uow, clock }: Pick<CoreDeps, 'repos' | 'uow' | 'clock'>) =>
  async (actor: Actor, folderId: string, input: { readonly name: string }): Promise<Result<Folder, DomainError>> => {
    const loaded = await loadOwnFolder(repos, actor, folderId);
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) => {
      await tx.folders.rename(folderId, input.name.trim(), clock.now());
      const updated = await tx.folders.findById(folderId);
      return updated ? ok(updated) : err(notFound('Folder'));
    });
  };
