import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Folder } from '../../domain/flow.js';
import type { Result } from '../../domain/result.js';
import { personalRow } from '../load-owned.js';

/** One of the caller's folders, for a change; anyone else's is not found, whatever the role. */
export const loadOwnFolder = async (
  repos: Repositories,
  actor: Actor,
  folderId: string,
): Promise<Result<Folder, DomainError>> =>
  personalRow(actor, { action: 'manage', subject: 'Flow', resource: 'Folder' }, () => repos.folders.findById(folderId));
