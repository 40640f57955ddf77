import type { OAuthCheck } from '../../../ports/app-catalog.js';
import type { Actor } from '../../domain/actor.js';
import type { Connection } from '../../domain/connection.js';
import { type DomainError, invalidInput, notFound, verificationFailed } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { credentialChanges } from '../../engine/connection-use.js';
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

  const { code, state } = connection.credentials;
  // A code (and its state) comes back from the provider's consent page: it is exchanged once.
  const exchanging = code !== undefined || state !== undefined;
  let oauth: OAuthCheck | null = null;
  if (app.auth.kind === 'oauth2') {
    const client = await oauthClientOf(deps.repos, deps.apps, connection);
    if (!client.ok) return client;
    oauth = { client: client.value, redirectUri: oauthRedirectUri(deps.settings.webAppUrl, app.key) };
    if (code !== undefined) {
      // The state proves the code answers the authorization this connection asked for.
      const expected = connection.oauthState;
      const fresh = expected && expected.expiresAt > deps.clock.now();
      if (!fresh || typeof state !== 'string' || deps.secrets.hash(state) !== expected.hash) {
        return err(
          invalidInput({ 'formattedData.state': ['does not match the authorization this connection started.'] }),
        );
      }
      oauth = { ...oauth, codeVerifier: expected.codeVerifier };
    }
  }

  // The remote call happens outside any transaction: it may take seconds. Credentials already
  // stored are changed (a token renewed during the check) under the connection's lock, as in runs,
  // and not written again below: another process may have renewed them since.
  const result = await deps.apps.verifyCredentials(
    app.key,
    connection.credentials,
    oauth,
    exchanging ? undefined : credentialChanges(deps, connectionId),
  );
  const recorded = await deps.uow.run(async (tx) => {
    const now = deps.clock.now();
    if (result.ok) {
      await tx.connections.update(
        connectionId,
        {
          ...(exchanging && { credentials: result.credentials, oauthState: null }),
          verified: true,
          screenName: result.screenName,
        },
        now,
      );
      // An OAuth code just exchanged gives new tokens: listener triggers on it open again with them.
      await tx.listeners.touchConnection(connectionId);
    } else {
      // A code is single use: a failed exchange must not leave it, or its verifier, to be tried again.
      const { code: _code, state: _state, ...credentials } = connection.credentials;
      await tx.connections.update(
        connectionId,
        { ...(exchanging && { credentials, oauthState: null }), verified: false },
        now,
      );
    }
    const updated = await tx.connections.findById(connectionId);
    return updated ? ok(updated as Connection) : err(notFound('Connection'));
  });
  // The failure is recorded first (the refusal of a unit of work would roll it back).
  if (recorded.ok && !result.ok && refuseOnFailure) return err(verificationFailed(result.reason));
  return recorded;
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
