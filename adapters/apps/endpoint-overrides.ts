import type { Logger } from '../../ports/logger.js';
import type { App, AuthDefinition, HttpClient, TokenGrant } from './sdk/index.js';

/**
 * The instance's replacements for an app's vendor addresses, from `APP_BASE_URL_<KEY>` (the API)
 * and `APP_AUTH_URL_<KEY>` (where its OAuth consent page and token endpoint live): a proxy, a
 * regional or self-hosted edition for every connection, a test's fake vendor.
 */
export interface EndpointOverride {
  readonly baseUrl?: string;
  readonly authUrl?: string;
}

export const BASE_URL_PREFIX = 'APP_BASE_URL_';
export const AUTH_URL_PREFIX = 'APP_AUTH_URL_';

/** The variable's name for an app: the key upper-cased, other characters as `_` (`telegram-bot` -> `TELEGRAM_BOT`). */
export const overrideVariable = (prefix: string, appKey: string): string =>
  `${prefix}${appKey.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/**
 * The overrides the given variables name, by app key. A variable that names no app is reported
 * (a typo would otherwise send requests to the vendor silently).
 */
export const endpointOverridesOf = (
  variables: Readonly<Record<string, string>>,
  apps: readonly App[],
  logger: Logger,
): ReadonlyMap<string, EndpointOverride> => {
  const overrides = new Map<string, EndpointOverride>();
  const used = new Set<string>();
  for (const app of apps) {
    const baseName = overrideVariable(BASE_URL_PREFIX, app.key);
    const authName = overrideVariable(AUTH_URL_PREFIX, app.key);
    const baseUrl = variables[baseName];
    const authUrl = variables[authName];
    if (baseUrl !== undefined) used.add(baseName);
    if (authUrl !== undefined) used.add(authName);
    if (baseUrl !== undefined || authUrl !== undefined) {
      overrides.set(app.key, { ...(baseUrl !== undefined && { baseUrl }), ...(authUrl !== undefined && { authUrl }) });
    }
  }
  for (const name of Object.keys(variables)) {
    if (!used.has(name)) logger.warn({ variable: name }, 'an app address override names no app; it is ignored');
  }
  return overrides;
};

/** The same address on another server: its origin (and path prefix) replaced by the override's. */
export const rebase = (address: string, override: string): string => {
  const original = new URL(address);
  const target = new URL(override);
  return `${target.origin}${target.pathname.replace(/\/+$/, '')}${original.pathname}${original.search}`;
};

const rebasingHttp = (http: HttpClient, authUrl: string): HttpClient => ({
  request: (request) =>
    http.request(request.url === undefined ? request : { ...request, url: rebase(request.url, authUrl) }),
});

const tokenThrough = (token: TokenGrant, authUrl: string): TokenGrant => ({
  ...token,
  obtain: (http, ...rest) => token.obtain(rebasingHttp(http, authUrl), ...rest),
});

/** Every token endpoint the auth calls (a code's exchange, a renewal, a grant without consent) on the override. */
const withAuthUrl = (auth: AuthDefinition, authUrl: string): AuthDefinition => {
  if (auth.kind === 'oauth2') {
    return {
      ...auth,
      authorizationUrl: (...args) => rebase(auth.authorizationUrl(...args), authUrl),
      exchangeCode: (http, ...rest) => auth.exchangeCode(rebasingHttp(http, authUrl), ...rest),
      refresh: (http, ...rest) => auth.refresh(rebasingHttp(http, authUrl), ...rest),
      token: tokenThrough(auth.token, authUrl),
    };
  }
  return auth.kind === 'fields' && auth.token ? { ...auth, token: tokenThrough(auth.token, authUrl) } : auth;
};

/** The app as this instance runs it: its API, and its OAuth endpoints, where the override says. */
export const withEndpointOverride = (app: App, override: EndpointOverride | undefined): App => {
  if (!override) return app;
  const auth = override.authUrl ? withAuthUrl(app.auth, override.authUrl) : app.auth;
  const http = override.baseUrl
    ? {
        ...app.http,
        baseUrl: override.baseUrl,
        ...(app.http.baseUrl !== undefined && { replacedBaseUrl: app.http.baseUrl }),
      }
    : app.http;
  return { ...app, auth, http };
};
