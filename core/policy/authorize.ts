import type { Actor } from '../domain/actor.js';
import { type DomainError, forbidden, notFound } from '../domain/errors.js';
import type { PermissionAction, PermissionSubject } from '../domain/role.js';

/** Which rows of a subject an actor may act on: all of them, only their own, or none. */
export type Scope =
  | { readonly kind: 'all' }
  | { readonly kind: 'own'; readonly ownerId: string }
  | { readonly kind: 'none' };

const grants = (granted: PermissionAction, wanted: PermissionAction) => granted === wanted || granted === 'manage';

/**
 * The actor's scope for an action on a subject. Administrators hold every permission without
 * conditions. A permission without conditions covers all rows; one with `isCreator` covers the
 * actor's own; the widest grant wins.
 */
export const scopeOf = (actor: Actor, action: PermissionAction, subject: PermissionSubject): Scope => {
  if (actor.user.role.isAdmin) return { kind: 'all' };
  const matching = actor.user.role.permissions.filter((p) => p.subject === subject && grants(p.action, action));
  if (matching.some((p) => p.conditions.length === 0)) return { kind: 'all' };
  if (matching.length > 0) return { kind: 'own', ownerId: actor.user.id };
  return { kind: 'none' };
};

const covers = (scope: Scope, ownerId: string) =>
  scope.kind === 'all' || (scope.kind === 'own' && scope.ownerId === ownerId);

/**
 * May the actor do `action` on `subject`, and on this row if one is given? A refusal is a value:
 * a row the actor cannot even read is "not found" (its existence is not revealed); a row they can
 * read but not act on is "forbidden".
 */
export const authorize = (
  actor: Actor,
  action: PermissionAction,
  subject: PermissionSubject,
  resource?: { readonly ownerId: string },
): DomainError | null => {
  const scope = scopeOf(actor, action, subject);
  if (!resource) return scope.kind === 'none' ? forbidden(`You may not ${action} ${subject} resources.`) : null;
  if (covers(scope, resource.ownerId)) return null;
  if (action !== 'read' && covers(scopeOf(actor, 'read', subject), resource.ownerId)) {
    return forbidden(`You may not ${action} this ${subject}.`);
  }
  return notFound(subject);
};

/** Administration (`/admin/...`) belongs to the Admin role alone; permission rows do not matter. */
export const adminOnly = (actor: Actor): DomainError | null =>
  actor.user.role.isAdmin ? null : forbidden('Only administrators can do this.');
