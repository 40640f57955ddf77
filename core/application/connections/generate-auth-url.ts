import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { oauthClientOf, oauthRedirectUri } from '../../engine/oauth-client.js';
import type { CoreDeps } from '../deps.js';
import { loadConnection } from './load-connection.js';

const STATE_TTL_MS = 15 * 60_000;

/**
 * The provider's consent page for an OAuth2 connection, with a state bound to this connection. A
 * PKCE code verifier is made with it and kept only here, sealed with the state's hash: what passes
 * through the browser (the state, the code, the challenge) does not give it away.
 */
export const makeGenerateAuthUrl =
  ({
    repos,
    uow,
    clock,
    apps,
    secrets,
    settings,
  }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps' | 'secrets' | 'settings'>) =>
  async (actor: Actor, connectionId: string): Promise<Result<{ url: string }, DomainError>> => {
    const loaded = await loadConnection(repos, actor, connectionId, 'manage');
    if (!loaded.ok) return loaded;
    const connection = loaded.value;
    const app = apps.find(connection.appKey);
    if (!app) return err(notFound('App'));
    if (app.auth.kind !== 'oauth2') return err(invalidInput({ general: [`${app.name} does not use OAuth.`] }));
    const client = await oauthClientOf(repos, apps, connection);
    if (!client.ok) return client;
    const state = secrets.generate();
    // 256 random bits as 43 URL-safe characters: a verifier as RFC 7636 wants it. Apps without PKCE ignore it.
    const codeVerifier = secrets.generate();
    const url = apps.authorizationUrl(app.key, {
      client: client.value,
      redirectUri: oauthRedirectUri(settings.webAppUrl, app.key),
      state,
      codeVerifier,
    });
    if (!url) return err(invalidInput({ general: [`${app.name} does not use OAuth.`] }));
    return uow.run(async (tx) => {
      const now = clock.now();
      const oauthState = {
        hash: secrets.hash(state),
        expiresAt: new Date(now.getTime() + STATE_TTL_MS),
        codeVerifier,
      };
      await tx.connections.update(connectionId, { oauthState }, now);
      return ok({ url });
    });
  };
