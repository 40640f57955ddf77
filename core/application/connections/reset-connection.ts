import type { Actor } from '../../domain/actor.js';
import type { Connection } from '../../domain/connection.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadConnection } from './load-connection.js';

/** Drops the credentials; the connection keeps its display name and must be set up again. */
export const makeResetConnection =
  ({ repos, uow, clock }: Pick<CoreDeps, 'repos' | 'uow' | 'clock'>) =>
  async (actor: Actor, connectionId: string): Promise<Result<Connection, DomainError>> => {
    const loaded = await loadConnection(repos, actor, connectionId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) => {
      await tx.connections.update(connectionId, { credentials: {}, verified: false, oauthState: null }, clock.now());
      await tx.listeners.touchConnection(connectionId);
      const updated = await tx.connections.findById(connectionId);
      return updated ? ok(updated) : err(notFound('Connection'));
    });
  };
