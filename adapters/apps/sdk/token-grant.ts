import { createHash } from 'node:crypto';
import type { Credentials } from '../../../core/domain/app.js';
import type { OAuthClientSettings } from '../../../ports/app-catalog.js';
import type { HttpClient } from './http-client.js';
import { OAuth2Error } from './token-endpoint.js';

/** A token this close to its expiry is renewed before a request rather than after a 401. */
export const EXPIRY_MARGIN_MS = 60_000;

/**
 * How an auth kind keeps an access token in the connection's credentials (`accessToken`,
 * `expiresAt`...): with a refresh token (authorization code), a client-credentials grant or a
 * signed JWT. The session renews it through the connection's lock before it expires and on a 401.
 */
export interface TokenGrant {
  /** Whether the stored credentials want a new token before a request: none yet, or one about to expire. */
  due(stored: Credentials, now: number): boolean;
  /**
   * The credentials to store with a new token, from the credentials as stored now; null when they
   * cannot get one (no refresh token). Throws the provider's refusal (OAuth2Error).
   */
  obtain(http: HttpClient, stored: Credentials, client: OAuthClientSettings | null): Promise<Credentials | null>;
  /** The headers requests to the app's base URL carry. */
  headers(stored: Credentials): Readonly<Record<string, string>>;
}

/** Whether the stored `expiresAt` is past or within the margin; false when the provider gave none. */
export const expiresSoon = (stored: Credentials, now: number): boolean => {
  const at = typeof stored.expiresAt === 'string' ? Date.parse(stored.expiresAt) : Number.NaN;
  return Number.isFinite(at) && at - now <= EXPIRY_MARGIN_MS;
};

export const bearer = (stored: Credentials): Readonly<Record<string, string>> =>
  typeof stored.accessToken === 'string' ? { authorization: `Bearer ${stored.accessToken}` } : {};

/**
 * A short digest of what a cached token was obtained with (the client, the key, the scopes), stored
 * beside it: once the user changes those, the token is not theirs any more and is obtained again.
 */
export const fingerprint = (values: unknown): string =>
  createHash('sha256').update(JSON.stringify(values)).digest('base64url').slice(0, 22);

/**
 * The connection's grant is gone for good: the provider answered `invalid_grant` (RFC 6749 §5.2:
 * a refresh token revoked or expired, a signing key deleted), or GitHub's `bad_refresh_token`.
 */
export const isRevocation = (error: unknown): boolean =>
  error instanceof OAuth2Error && (error.code === 'invalid_grant' || error.code === 'bad_refresh_token');

/**
 * A step or check met a connection whose authorization the provider revoked or let expire: nothing
 * but reconnecting it helps, so the engine does not try again and the connection shows unverified.
 */
export class AuthorizationRevokedError extends Error {
  override readonly name = 'AuthorizationRevokedError';
  constructor(
    appName: string,
    /** The provider's words, when it gave any (never a token). */
    readonly providerReason: string | null = null,
  ) {
    const said = providerReason ? ` The provider said: ${providerReason}` : '';
    super(`${appName}: the connection's authorization was revoked or expired; reconnect it.${said}`);
  }
}
