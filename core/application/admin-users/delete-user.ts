import type { Actor } from '../../domain/actor.js';
import { type DomainError, forbidden, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { removeAccount, stopRemovedFlows } from '../users/remove-account.js';

export const makeDeleteUser =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps' | 'runner' | 'queue' | 'logger' | 'settings'>) =>
  async (actor: Actor, userId: string): Promise<Result<void, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    if (userId === actor.user.id) {
      return err(forbidden('Administrators remove their own account with DELETE /users/:userId.'));
    }
    const removed = await deps.uow.run(async (tx) => {
      if (!(await tx.users.findById(userId))) return err(notFound('User'));
      return ok(await removeAccount(tx, userId, deps.clock.now()));
    });
    if (!removed.ok) return removed;
    await stopRemovedFlows(deps, removed.value);
    return ok(undefined);
  };
