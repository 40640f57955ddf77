import type { UserWithRole } from './user.js';

/**
 * Who is calling: the authenticated user and the credential they used. 'operator' is someone with
 * shell access to the server acting for a user through the `conveyor` command (no token; tokenId '').
 */
export interface Actor {
  readonly user: UserWithRole;
  readonly credential: { readonly kind: 'access-token' | 'api-token' | 'operator'; readonly tokenId: string };
}

export const isAdmin = (actor: Actor): boolean => actor.user.role.isAdmin;
