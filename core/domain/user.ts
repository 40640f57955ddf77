import type { Role } from './role.js';

export type UserStatus = 'active' | 'invited';

export interface User {
  readonly id: string;
  readonly email: string;
  readonly fullName: string;
  readonly status: UserStatus;
  readonly roleId: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A user as the session sees it: with the role that decides what they may do. */
export interface UserWithRole extends User {
  readonly role: Role;
}

/** The bounds of what a person gives for an account, whichever adapter reads it (HTTP, the CLI). */
export const EMAIL_MAX_LENGTH = 254;
export const FULL_NAME_MAX_LENGTH = 255;
export const PASSWORD_MIN_LENGTH = 8;
/** Bounded so that hashing a hostile multi-megabyte "password" cannot tie up the CPU. */
export const PASSWORD_MAX_LENGTH = 256;

/** E-mail addresses compare case-insensitively; they are stored in this form. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
