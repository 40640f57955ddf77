import type { ConnectionRecord, Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { PermissionAction } from '../../domain/role.js';
import { authorize } from '../../policy/authorize.js';

/** A connection the actor may `action`, or why not (404 when they cannot even read it). */
export const loadConnection = async (
  repos: Repositories,
  actor: Actor,
  id: string,
  action: PermissionAction,
): Promise<Result<ConnectionRecord, DomainError>> => {
  const connection = await repos.connections.findById(id);
  if (!connection) return err(notFound('Connection'));
  const refused = authorize(actor, action, 'Connection', { ownerId: connection.userId });
  return refused ? err(refused) : ok(connection);
};
