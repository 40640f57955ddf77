import type * as v from 'valibot';
import type { AuthDescription, Credentials } from '../../../core/domain/app.js';
import type { OAuthClientSettings } from '../../../ports/app-catalog.js';
import { type ArgumentMap, describeArguments, type InferParameters, parametersSchema, text } from './arguments.js';
import { readWith, type Verified } from './auth.js';
import type { AppContext, AuthAccess, NoParameters } from './context.js';
import type { HttpClient } from './http-client.js';
import { codeChallenge } from './pkce.js';
import {
  type ClientAuthentication,
  OAuth2Error,
  requestTokens,
  type TokenAnswer,
  type TokenAnswerValues,
  type TokenClient,
  type TokenRequestFormat,
  withoutKeys,
} from './token-endpoint.js';
import { bearer, expiresSoon, type TokenGrant } from './token-grant.js';

/** What a connection stores once authorized, next to the settings it was created with. */
export type OAuth2Tokens = TokenAnswer;

export const TOKEN_KEYS = ['accessToken', 'refreshToken', 'tokenType', 'scope', 'expiresAt'] as const;

export type OAuth2Data = Credentials & Partial<OAuth2Tokens>;

/** The fields that name an OAuth client: in an OAuth client's settings, or a connection's own. */
export const clientIdentity = {
  clientId: text({ label: 'Client ID', required: true }),
  clientSecret: text({ label: 'Client secret', required: true, secret: true }),
};

type ClientFields<C extends ArgumentMap> = typeof clientIdentity & C;

export type ClientSettings<C extends ArgumentMap> = OAuthClientSettings & InferParameters<ClientFields<C>>;

export type OAuth2Context<C extends ArgumentMap> = AppContext<NoParameters, AuthAccess<OAuth2Data, ClientSettings<C>>>;

export interface OAuth2AuthDefinition<C extends ArgumentMap = ArgumentMap> {
  readonly kind: 'oauth2';
  readonly description: AuthDescription;
  readonly clientSchema: v.GenericSchema<unknown, ClientSettings<C>>;
  /** Extra values a user enters for the connection itself (rare); none by default. */
  readonly fieldsSchema: v.GenericSchema<unknown, Credentials>;
  /** Whether the consent URL carries a PKCE challenge (S256) and the exchange its verifier. */
  readonly pkce: boolean;
  /** `codeVerifier` is required with PKCE: its challenge goes on the URL, the verifier stays with the caller. */
  authorizationUrl(
    client: OAuthClientSettings,
    request: { redirectUri: string; state: string; codeVerifier?: string },
  ): string;
  exchangeCode(
    http: HttpClient,
    client: OAuthClientSettings,
    code: string,
    redirectUri: string,
    codeVerifier?: string | null,
  ): Promise<OAuth2Tokens>;
  refresh(http: HttpClient, client: OAuthClientSettings, refreshToken: string): Promise<OAuth2Tokens>;
  /** The access token renewed with the refresh token, before it expires and on a 401. */
  readonly token: TokenGrant;
  /** Who the tokens belong to; throws when they do not work. */
  profile(ctx: OAuth2Context<C>): Promise<Verified>;
  isStillVerified?(ctx: OAuth2Context<C>): Promise<boolean>;
  /** Headers `ctx.http` adds to requests to the app's base URL; by default a Bearer token. */
  headers(data: OAuth2Data): Readonly<Record<string, string>>;
  /** The client settings, parsed with the app's client fields (defaults applied). */
  readClient(client: OAuthClientSettings): ClientSettings<C>;
}

type Endpoint<C extends ArgumentMap> = string | ((client: ClientSettings<C>) => string);

export interface OAuth2AuthOptions<C extends ArgumentMap> {
  readonly authorizeUrl: Endpoint<C>;
  readonly tokenUrl: Endpoint<C>;
  readonly scopes: readonly string[];
  /** Most providers separate scopes with a space (RFC 6749); a few want a comma. */
  readonly scopeSeparator?: string;
  /** Extra query parameters of the consent page (e.g. `access_type: 'offline'`). */
  readonly authorizeParams?: Readonly<Record<string, string>>;
  /** Proof Key for Code Exchange (RFC 7636, S256), for providers that require or accept it. Off by default. */
  readonly pkce?: boolean;
  /** The client secret in the token request's body (the default) or as HTTP Basic credentials. */
  readonly clientAuthentication?: ClientAuthentication;
  /** The token request as a form (the default, RFC 6749) or as JSON (Notion). */
  readonly tokenRequestFormat?: TokenRequestFormat;
  /**
   * Values of the token endpoint's answer to keep in the connection besides the tokens (Slack
   * answers its user token in `authed_user`): text values, stored at each exchange and renewal.
   */
  readonly keepFromTokenAnswer?: TokenAnswerValues;
  /** Client settings besides the client id and secret (endpoints of a self-hosted server...). */
  readonly clientFields?: C;
  readonly fields?: ArgumentMap;
  profile(ctx: OAuth2Context<C>): Promise<Verified>;
  isStillVerified?(ctx: OAuth2Context<C>): Promise<boolean>;
  headers?(data: OAuth2Data): Readonly<Record<string, string>>;
}

/**
 * The authorization-code flow: the consent page URL (with a PKCE challenge when asked), the code
 * exchanged for tokens, and the access token renewed with the refresh token before it expires
 * and when a request answers 401.
 */
export const oauth2Auth = <const C extends ArgumentMap = Record<never, never>>(
  options: OAuth2AuthOptions<C>,
): OAuth2AuthDefinition<C> => {
  const clientFields = { ...clientIdentity, ...options.clientFields } as ClientFields<C>;
  const clientSchema = parametersSchema(clientFields) as v.GenericSchema<unknown, ClientSettings<C>>;
  const fields = options.fields ?? {};
  const pkce = options.pkce ?? false;
  const readClient = (client: OAuthClientSettings) => readWith(clientSchema, client, 'OAuth client settings');
  const endpoint = (which: Endpoint<C>, client: OAuthClientSettings) =>
    typeof which === 'string' ? which : which(readClient(client));
  const tokenClient = (client: OAuthClientSettings): TokenClient => ({
    id: client.clientId,
    secret: client.clientSecret,
    authentication: options.clientAuthentication ?? 'body',
    ...(options.tokenRequestFormat && { format: options.tokenRequestFormat }),
  });
  const refresh = (http: HttpClient, client: OAuthClientSettings, refreshToken: string) =>
    requestTokens(
      http,
      endpoint(options.tokenUrl, client),
      { grant_type: 'refresh_token', refresh_token: refreshToken },
      tokenClient(client),
      options.keepFromTokenAnswer,
    );
  const headers = options.headers ?? ((data: OAuth2Data): Readonly<Record<string, string>> => bearer(data));

  return {
    kind: 'oauth2',
    description: {
      kind: 'oauth2',
      fields: describeArguments(fields),
      clientFields: describeArguments(clientFields),
    },
    clientSchema,
    fieldsSchema: parametersSchema(fields) as v.GenericSchema<unknown, Credentials>,
    pkce,
    readClient,
    authorizationUrl(client, { redirectUri, state, codeVerifier }) {
      const url = new URL(endpoint(options.authorizeUrl, client));
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('response_type', 'code');
      if (options.scopes.length > 0) url.searchParams.set('scope', options.scopes.join(options.scopeSeparator ?? ' '));
      if (pkce) {
        if (!codeVerifier) throw new Error('A PKCE authorization needs a code verifier.');
        url.searchParams.set('code_challenge', codeChallenge(codeVerifier));
        url.searchParams.set('code_challenge_method', 'S256');
      }
      for (const [name, value] of Object.entries(options.authorizeParams ?? {})) url.searchParams.set(name, value);
      return url.toString();
    },
    async exchangeCode(http, client, code, redirectUri, codeVerifier) {
      if (pkce && !codeVerifier) {
        throw new OAuth2Error('Authorization failed: it was not started here (no code verifier); connect again.');
      }
      return requestTokens(
        http,
        endpoint(options.tokenUrl, client),
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          ...(pkce && codeVerifier && { code_verifier: codeVerifier }),
        },
        tokenClient(client),
        options.keepFromTokenAnswer,
      );
    },
    refresh,
    token: {
      due: (stored, now) =>
        typeof stored.refreshToken === 'string' &&
        stored.refreshToken !== '' &&
        (typeof stored.accessToken !== 'string' || expiresSoon(stored, now)),
      async obtain(http, stored, client) {
        const refreshToken = stored.refreshToken;
        if (typeof refreshToken !== 'string' || refreshToken === '' || !client) return null;
        // Providers that keep the refresh token (Google) answer none: the stored one stays. The old
        // expiry goes, so that an answer without one is not taken for an expiring token.
        return { ...withoutKeys(stored, ['expiresAt']), ...(await refresh(http, client, refreshToken)) };
      },
      headers,
    },
    profile: options.profile,
    ...(options.isStillVerified && { isStillVerified: options.isStillVerified }),
    headers,
  };
};
