import type { ConnectionUse } from '../../ports/app-catalog.js';
import type { ConnectionRecord } from '../../ports/repositories.js';
import { type DomainError, notFound } from '../domain/errors.js';
import { err, ok, type Result } from '../domain/result.js';
import type { EngineDeps } from './deps.js';
import { oauthClientOf } from './oauth-client.js';

/**
 * A stored connection as an app's hook uses it: credentials, the OAuth client of OAuth2 apps, and
 * a way to keep credentials the hook refreshes. A removed user's connection is gone for every use.
 */
export const connectionUse = async (
  deps: Pick<EngineDeps, 'repos' | 'uow' | 'clock' | 'apps'>,
  connection: ConnectionRecord,
): Promise<Result<ConnectionUse, DomainError>> => {
  if (connection.ownerRemoved) return err(notFound('Connection'));
  let oauth: ConnectionUse['oauth'] = null;
  if (deps.apps.find(connection.appKey)?.auth.kind === 'oauth2') {
    const client = await oauthClientOf(deps.repos, deps.apps, connection);
    if (!client.ok) return client;
    oauth = { client: client.value };
  }
  return ok({
    credentials: connection.credentials,
    oauth,
    save: async (credentials) => {
      await deps.uow.run(async (tx) => {
        await tx.connections.update(connection.id, { credentials }, deps.clock.now());
        return ok(undefined);
      });
    },
  });
};
