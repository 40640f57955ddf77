import type { Actor } from '../../domain/actor.js';
import type { Connection } from '../../domain/connection.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadConnection } from './load-connection.js';

/** A connection the actor may read, without its credentials. */
export const makeGetConnection =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor, connectionId: string): Promise<Result<Connection, DomainError>> => {
    const loaded = await loadConnection(repos, actor, connectionId, 'read');
    if (!loaded.ok) return loaded;
    const { credentials: _secret, oauthState: _state, ownerRemoved: _removed, ...connection } = loaded.value;
    return ok(connection);
  };
