import type { Actor } from '../domain/actor.js';
import { type DomainError, forbidden } from '../domain/errors.js';

/** Account routes (`/users/:userId/...`) act on the caller's own account only, whatever the role. */
export const ownAccountOnly = (actor: Actor, userId: string): DomainError | null =>
  actor.user.id === userId ? null : forbidden('You can only change your own account.');
