import type { ChangeCredentials, ConnectionUse } from '../../ports/app-catalog.js';
import type { ConnectionRecord } from '../../ports/repositories.js';
import { type DomainError, notFound } from '../domain/errors.js';
import { err, ok, type Result } from '../domain/result.js';
import type { EngineDeps } from './deps.js';
import { oauthClientOf } from './oauth-client.js';

/**
 * Changes to a stored connection's credentials (renewed tokens, values a hook sets), each made on
 * the credentials as stored at that moment, under the connection's lock.
 */
export const credentialChanges =
  (deps: Pick<EngineDeps, 'repos' | 'clock'>, connectionId: string): ChangeCredentials =>
  async (change) => {
    const stored = await deps.repos.connections.changeCredentials(connectionId, change, () => deps.clock.now());
    if (!stored) throw new Error('The connection no longer exists.');
    return stored;
  };

/**
 * A stored connection as an app's hook uses it: credentials, the OAuth client of OAuth2 apps, and
 * the way credentials the hook renews or sets are stored. A removed user's connection is gone for every use.
 */
export const connectionUse = async (
  deps: Pick<EngineDeps, 'repos' | 'clock' | 'apps'>,
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
    change: credentialChanges(deps, connection.id),
  });
};
