import type { Actor } from '../domain/actor.js';
import { type DomainError, notFound } from '../domain/errors.js';
import { err, ok, type Result } from '../domain/result.js';
import type { PermissionAction, PermissionSubject } from '../domain/role.js';
import { authorize } from '../policy/authorize.js';

/**
 * A row the actor may `action`, or why not: missing and unreadable rows are both "not found", so
 * that the existence of another user's row is not revealed; readable ones are "forbidden".
 */
export const ownedRow = <T extends { readonly userId: string }>(
  row: T | null,
  actor: Actor,
  action: PermissionAction,
  subject: PermissionSubject,
): Result<T, DomainError> => {
  if (!row) return err(notFound(subject));
  const refused = authorize(actor, action, subject, { ownerId: row.userId });
  return refused ? err(refused) : ok(row);
};

/**
 * A personal row (a folder, a form, an agent): the actor needs `action` on `subject`, and the row
 * must be their own; anyone else's is not found, whatever the role.
 */
export const personalRow = async <T extends { readonly userId: string }>(
  actor: Actor,
  access: { readonly action: PermissionAction; readonly subject: PermissionSubject; readonly resource: string },
  find: () => Promise<T | null>,
): Promise<Result<T, DomainError>> => {
  const refused = authorize(actor, access.action, access.subject);
  if (refused) return err(refused);
  const row = await find();
  return row?.userId === actor.user.id ? ok(row) : err(notFound(access.resource));
};
