import type { ConnectionUse } from '../../../ports/app-catalog.js';
import type { ConnectionRecord } from '../../../ports/repositories.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { oauthClientOf } from './oauth.js';

/**
 * A stored connection as an app's hook uses it: credentials, the OAuth client of OAuth2 apps, and
 * a way to keep credentials the hook refreshes.
 */
export const connectionUse = async (
  deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'>,
  connection: ConnectionRecord,
): Promise<Result<ConnectionUse, DomainError>> => {
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
