import type { UserWithRole } from './user.js';

/** Who is calling: the authenticated user and the credential they used. */
export interface Actor {
  readonly user: UserWithRole;
  readonly credential: { readonly kind: 'access-token' | 'api-token'; readonly tokenId: string };
}

export const isAdmin = (actor: Actor): boolean => actor.user.role.isAdmin;
