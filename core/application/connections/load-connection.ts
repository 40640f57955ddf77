import type { ConnectionRecord, Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import type { Result } from '../../domain/result.js';
import type { PermissionAction } from '../../domain/role.js';
import { ownedRow } from '../load-owned.js';

/** A connection the actor may `action`, or why not (404 when they cannot even read it). */
export const loadConnection = async (
  repos: Repositories,
  actor: Actor,
  id: string,
  action: PermissionAction,
): Promise<Result<ConnectionRecord, DomainError>> =>
  ownedRow(await repos.connections.findById(id), actor, action, 'Connection');
