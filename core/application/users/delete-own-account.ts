import type { Actor } from '../../domain/actor.js';
import { type DomainError, lastAdmin } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { ownAccountOnly } from '../../policy/own-account.js';
import type { CoreDeps } from '../deps.js';
import { removeAccount, stopRemovedFlows } from './remove-account.js';

export const makeDeleteOwnAccount =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'>) =>
  async (actor: Actor, userId: string): Promise<Result<void, DomainError>> => {
    const refused = ownAccountOnly(actor, userId);
    if (refused) return err(refused);
    const removed = await deps.uow.run(async (tx) => {
      // Without this an instance could lose its last administrator and become unmanageable.
      if (actor.user.role.isAdmin && (await tx.users.countActiveAdmins()) <= 1) return err(lastAdmin());
      return ok(await removeAccount(tx, userId, deps.clock.now()));
    });
    if (!removed.ok) return removed;
    await stopRemovedFlows(deps, removed.value);
    return ok(undefined);
  };
