import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadConnection } from './load-connection.js';

/** Steps that used the connection lose it and become incomplete (their flows stay as they are otherwise). */
export const makeDeleteConnection =
  ({ repos, uow, clock }: Pick<CoreDeps, 'repos' | 'uow' | 'clock'>) =>
  async (actor: Actor, connectionId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadConnection(repos, actor, connectionId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) => {
      await tx.steps.detachConnection(connectionId, clock.now());
      await tx.connections.delete(connectionId);
      return ok(undefined);
    });
  };
