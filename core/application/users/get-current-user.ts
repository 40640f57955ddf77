import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { UserWithRole } from '../../domain/user.js';

/** The actor was loaded fresh for this request, so it is the current state of the account. */
export const makeGetCurrentUser =
  () =>
  async (actor: Actor): Promise<Result<UserWithRole, DomainError>> =>
    ok(actor.user);
