/** Lifetimes of the single-use tokens mailed to users. */
export const RESET_PASSWORD_TOKEN_TTL_MS = 30 * 60_000;
export const INVITATION_TOKEN_TTL_MS = 72 * 60 * 60_000;

export type UserTokenKind = 'reset-password' | 'invitation';

export interface AccessToken {
  readonly id: string;
  readonly userId: string;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly createdAt: Date;
}
