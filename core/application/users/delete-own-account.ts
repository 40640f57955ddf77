import type { Actor } from '../../domain/actor.js';
import { type DomainError, lastAdmin } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { ownAccountOnly } from '../../policy/own-account.js';
import type { CoreDeps } from '../deps.js';
import { removeAccount } from './remove-account.js';

export const makeDeleteOwnAccount =
  ({ uow, clock }: Pick<CoreDeps, 'uow' | 'clock'>) =>
  async (actor: Actor, userId: string): Promise<Result<void, DomainError>> => {
    const refused = ownAccountOnly(actor, userId);
    if (refused) return err(refused);
    return uow.run(async (tx) => {
      // Without this an instance could lose its last administrator and become unmanageable.
      if (actor.user.role.isAdmin && (await tx.users.countActiveAdmins()) <= 1) return err(lastAdmin());
      await removeAccount(tx, userId, clock.now());
      return ok(undefined);
    });
  };
