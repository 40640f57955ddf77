import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { Folder } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';

/** One of the caller's folders, for a change; anyone else's is not found, whatever the role. */
export const loadOwnFolder = async (
  repos: Repositories,
  actor: Actor,
  folderId: string,
): Promise<Result<Folder, DomainError>> => {
  const refused = authorize(actor, 'manage', 'Flow');
  if (refused) return err(refused);
  const folder = await repos.folders.findById(folderId);
  return folder?.userId === actor.user.id ? ok(folder) : err(notFound('Folder'));
};
