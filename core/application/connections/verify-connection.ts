import type { Actor } from '../../domain/actor.js';
import type { Connection } from '../../domain/connection.js';
import { type DomainError, invalidInput, notFound, verificationFailed } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { oauthClientOf, oauthRedirectUri } from '../../engine/oauth-client.js';
import type { CoreDeps } from '../deps.js';
import { loadConnection } from './load-connection.js';

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps' | 'secrets' | 'settings'>;

/**
 * Asks the app whether the connection's credentials work and records the answer. With
 * `refuseOnFailure`, a failed check is an error (verify); without, it is just `verified: false` (test).
 */
const check = async (deps: Deps, actor: Actor, connectionId: string, refuseOnFailure: boolean) => {
  const loaded = await loadConnection(deps.repos, actor, connectionId, 'manage');
  if (!loaded.ok) return loaded;
  const connection = loaded.value;
  const app = deps.apps.find(connection.appKey);
  if (!app) return err(notFound('App'));

  let oauth = null;
  if (app.auth.kind === 'oauth2') {
    const client = await oauthClientOf(deps.repos, deps.apps, connection);
    if (!client.ok) return client;
    oauth = { client: client.value, redirectUri: oauthRedirectUri(deps.settings.webAppUrl, app.key) };
    const { code, state } = connection.credentials;
    if (code !== undefined) {
      // The state proves the code answers the authorization this connection asked for.
      const expected = connection.oauthState;
      const fresh = expected && expected.expiresAt > deps.clock.now();
      if (!fresh || typeof state !== 'string' || deps.secrets.hash(state) !== expected.hash) {
        return err(
          invalidInput({ 'formattedData.state': ['does not match the authorization this connection started.'] }),
        );
      }
    }
  }

  // The remote call happens outside any transaction: it may take seconds.
  const result = await deps.apps.verifyCredentials(app.key, connection.credentials, oauth);
  return deps.uow.run(async (tx) => {
    const now = deps.clock.now();
    if (result.ok) {
      await tx.connections.update(
        connectionId,
        { credentials: result.credentials, verified: true, screenName: result.screenName, oauthState: null },
        now,
      );
      // An OAuth code just exchanged gives new tokens: listener triggers on it open again with them.
      await tx.listeners.touchConnection(connectionId);
    } else {
      // A code is single use: a failed exchange must not leave it to be tried again.
      const { code: _code, state: _state, ...credentials } = connection.credentials;
      await tx.connections.update(connectionId, { credentials, verified: false }, now);
      if (refuseOnFailure) return err(verificationFailed(result.reason));
    }
    const updated = await tx.connections.findById(connectionId);
    return updated ? ok(updated as Connection) : err(notFound('Connection'));
  });
};

export const makeVerifyConnection =
  (deps: Deps) =>
  (actor: Actor, connectionId: string): Promise<Result<Connection, DomainError>> =>
    check(deps, actor, connectionId, true);

/** Re-checks stored credentials; the answer is in `verified`, not an error. */
export const makeTestConnection =
  (deps: Deps) =>
  (actor: Actor, connectionId: string): Promise<Result<Connection, DomainError>> =>
    check(deps, actor, connectionId, false);
