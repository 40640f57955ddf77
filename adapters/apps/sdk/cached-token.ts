import type { Credentials } from '../../../core/domain/app.js';
import type { HttpClient } from './http-client.js';
import { type TokenAnswer, withoutKeys } from './token-endpoint.js';
import { bearer, expiresSoon, fingerprint, type TokenGrant } from './token-grant.js';

/** What a connection made of fields keeps of its last token, beside the fields. */
export const CACHED_TOKEN_KEYS = ['accessToken', 'refreshToken', 'tokenType', 'scope', 'expiresAt', 'tokenFor'];

export interface CachedTokenOptions<T> {
  /** The connection's fields, parsed; throws (naming fields) when they do not fit. */
  read(stored: Credentials): T;
  /** What the token is obtained with and for (the fields, the endpoint, the scopes). */
  source(fields: T): unknown;
  /** Asks the provider for a token. */
  request(http: HttpClient, fields: T): Promise<TokenAnswer>;
  headers?(accessToken: string, fields: T): Readonly<Record<string, string>>;
}

/**
 * A token got from the connection's own fields, with no user consent (a client-credentials grant,
 * a service account's JWT), cached in the credentials with its expiry and a fingerprint of what it
 * was got with: it is obtained again before it expires, and once the fields change.
 */
export const cachedTokenGrant = <T>(options: CachedTokenOptions<T>): TokenGrant => {
  const current = (stored: Credentials, now: number) => {
    if (typeof stored.accessToken !== 'string' || expiresSoon(stored, now)) return false;
    try {
      return stored.tokenFor === fingerprint(options.source(options.read(stored)));
    } catch {
      return false;
    }
  };
  return {
    due: (stored, now) => !current(stored, now),
    async obtain(http, stored) {
      const fields = options.read(stored);
      // Nothing is refreshed here: a grant without consent is simply asked for again.
      const { refreshToken: _unused, ...tokens } = await options.request(http, fields);
      return { ...withoutKeys(stored, CACHED_TOKEN_KEYS), ...tokens, tokenFor: fingerprint(options.source(fields)) };
    },
    headers(stored) {
      if (!options.headers || typeof stored.accessToken !== 'string') return bearer(stored);
      return options.headers(stored.accessToken, options.read(stored));
    },
  };
};
