import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadConnection } from './load-connection.js';

export const makeDeleteConnection =
  ({ repos, uow }: Pick<CoreDeps, 'repos' | 'uow'>) =>
  async (actor: Actor, connectionId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadConnection(repos, actor, connectionId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) => {
      await tx.connections.delete(connectionId);
      return ok(undefined);
    });
  };
