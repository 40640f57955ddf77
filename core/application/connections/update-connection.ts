import type { Actor } from '../../domain/actor.js';
import type { Credentials } from '../../domain/app.js';
import type { Connection } from '../../domain/connection.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { formattedDataErrors } from '../../engine/oauth-client.js';
import type { CoreDeps } from '../deps.js';
import type { ConnectionInput } from './create-connection.js';
import { loadConnection } from './load-connection.js';

/**
 * New data is merged over the stored credentials and the connection becomes unverified. For
 * OAuth2 apps the `code` and `state` the provider returned ride along until verification.
 */
export const makeUpdateConnection =
  ({ repos, uow, clock, apps }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'>) =>
  async (actor: Actor, connectionId: string, input: ConnectionInput): Promise<Result<Connection, DomainError>> => {
    const loaded = await loadConnection(repos, actor, connectionId, 'manage');
    if (!loaded.ok) return loaded;
    const connection = loaded.value;
    const app = apps.find(connection.appKey);
    if (!app) return err(notFound('App'));

    let credentials: Credentials = connection.credentials;
    let oauthClientId = connection.oauthClientId;
    if (input.appAuthClientId !== undefined) {
      const client = await repos.oauthClients.findById(input.appAuthClientId);
      if (!client?.active || client.appKey !== connection.appKey) return err(notFound('OAuthClient'));
      oauthClientId = client.id;
    } else {
      const { code, state, ...fields } = input.formattedData;
      const merged = { ...connection.credentials, ...fields };
      const pending = { ...(code !== undefined && { code }), ...(state !== undefined && { state }) };
      if (Object.keys(fields).length > 0 || app.auth.kind === 'fields') {
        const parsed =
          app.auth.kind === 'oauth2'
            ? apps.parseClientSettings(app.key, merged)
            : apps.parseAuthFields(app.key, merged);
        if (!parsed.ok) return err(formattedDataErrors(parsed.fields));
        credentials = { ...connection.credentials, ...parsed.value, ...pending };
      } else {
        credentials = { ...connection.credentials, ...pending };
      }
    }
    return uow.run(async (tx) => {
      await tx.connections.update(connectionId, { credentials, oauthClientId, verified: false }, clock.now());
      // Listener triggers on it open again with what it now holds.
      await tx.listeners.touchConnection(connectionId);
      const updated = await tx.connections.findById(connectionId);
      return updated ? ok(updated) : err(notFound('Connection'));
    });
  };
