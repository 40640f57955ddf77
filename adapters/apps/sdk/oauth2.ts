import type * as v from 'valibot';
import type { AuthDescription, Credentials } from '../../../core/domain/app.js';
import type { OAuthClientSettings } from '../../../ports/app-catalog.js';
import { type ArgumentMap, describeArguments, type InferParameters, parametersSchema, text } from './arguments.js';
import { readWith, type Verified } from './auth.js';
import type { AppContext, AuthAccess, NoParameters } from './context.js';
import type { HttpClient } from './http-client.js';
import { remoteMessageOf } from './http-errors.js';

/** What a connection stores once authorized, next to the settings it was created with. */
export type OAuth2Tokens = {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly tokenType?: string;
  readonly scope?: string;
  /** ISO time the access token expires, when the provider says. */
  readonly expiresAt?: string;
};

export const TOKEN_KEYS = ['accessToken', 'refreshToken', 'tokenType', 'scope', 'expiresAt'] as const;

export type OAuth2Data = Credentials & Partial<OAuth2Tokens>;

const clientIdentity = {
  clientId: text({ label: 'Client ID', required: true }),
  clientSecret: text({ label: 'Client secret', required: true, secret: true }),
};

type ClientFields<C extends ArgumentMap> = typeof clientIdentity & C;

export type ClientSettings<C extends ArgumentMap> = OAuthClientSettings & InferParameters<ClientFields<C>>;

export type OAuth2Context<C extends ArgumentMap> = AppContext<NoParameters, AuthAccess<OAuth2Data, ClientSettings<C>>>;

/** The provider refused a code or a refresh token; the message is the provider's reason. */
export class OAuth2Error extends Error {
  override readonly name = 'OAuth2Error';
}

export interface OAuth2AuthDefinition<C extends ArgumentMap = ArgumentMap> {
  readonly kind: 'oauth2';
  readonly description: AuthDescription;
  readonly clientSchema: v.GenericSchema<unknown, ClientSettings<C>>;
  /** Extra values a user enters for the connection itself (rare); none by default. */
  readonly fieldsSchema: v.GenericSchema<unknown, Credentials>;
  authorizationUrl(client: OAuthClientSettings, request: { redirectUri: string; state: string }): string;
  exchangeCode(http: HttpClient, client: OAuthClientSettings, code: string, redirectUri: string): Promise<OAuth2Tokens>;
  refresh(http: HttpClient, client: OAuthClientSettings, refreshToken: string): Promise<OAuth2Tokens>;
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
  /** Client settings besides the client id and secret (endpoints of a self-hosted server...). */
  readonly clientFields?: C;
  readonly fields?: ArgumentMap;
  profile(ctx: OAuth2Context<C>): Promise<Verified>;
  isStillVerified?(ctx: OAuth2Context<C>): Promise<boolean>;
  headers?(data: OAuth2Data): Readonly<Record<string, string>>;
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** Token endpoints answer JSON, or a form when they ignore `Accept` (GitHub's older default). */
const tokenAnswer = (data: unknown, contentType: string): Record<string, unknown> | null => {
  if (typeof data === 'string' && contentType.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(data));
  }
  return asRecord(data);
};

const requestTokens = async (http: HttpClient, tokenUrl: string, form: Record<string, string>) => {
  const response = await http.request({
    method: 'POST',
    url: tokenUrl,
    body: new URLSearchParams(form),
    headers: { accept: 'application/json' },
    throwHttpErrors: false,
    maxRedirects: 0,
  });
  const answer = tokenAnswer(response.data, response.headers['content-type'] ?? '');
  // Some providers (GitHub) report a refused code with status 200 and an `error` field.
  if (response.status >= 400 || !answer || answer.error !== undefined) {
    const reason = remoteMessageOf(answer ?? response.data) ?? `the token endpoint answered ${response.status}`;
    throw new OAuth2Error(`Authorization failed: ${reason}`);
  }
  const accessToken = answer.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new OAuth2Error('Authorization failed: the token endpoint answered no access token.');
  }
  const expiresIn = Number(answer.expires_in);
  const tokens: Record<string, string> = { accessToken };
  if (typeof answer.refresh_token === 'string') tokens.refreshToken = answer.refresh_token;
  if (typeof answer.token_type === 'string') tokens.tokenType = answer.token_type;
  if (typeof answer.scope === 'string') tokens.scope = answer.scope;
  if (answer.expires_in !== undefined && Number.isFinite(expiresIn)) {
    tokens.expiresAt = new Date(Date.now() + expiresIn * 1000).toISOString();
  }
  return tokens as unknown as OAuth2Tokens;
};

/**
 * The authorization-code flow: the consent page URL, the code exchanged for tokens (client
 * credentials in the form body), and refresh with the refresh token when a request answers 401.
 */
export const oauth2Auth = <const C extends ArgumentMap = Record<never, never>>(
  options: OAuth2AuthOptions<C>,
): OAuth2AuthDefinition<C> => {
  const clientFields = { ...clientIdentity, ...options.clientFields } as ClientFields<C>;
  const clientSchema = parametersSchema(clientFields) as v.GenericSchema<unknown, ClientSettings<C>>;
  const fields = options.fields ?? {};
  const readClient = (client: OAuthClientSettings) => readWith(clientSchema, client, 'OAuth client settings');
  const endpoint = (which: Endpoint<C>, client: OAuthClientSettings) =>
    typeof which === 'string' ? which : which(readClient(client));

  return {
    kind: 'oauth2',
    description: {
      kind: 'oauth2',
      fields: describeArguments(fields),
      clientFields: describeArguments(clientFields),
    },
    clientSchema,
    fieldsSchema: parametersSchema(fields) as v.GenericSchema<unknown, Credentials>,
    readClient,
    authorizationUrl(client, { redirectUri, state }) {
      const url = new URL(endpoint(options.authorizeUrl, client));
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('response_type', 'code');
      if (options.scopes.length > 0) url.searchParams.set('scope', options.scopes.join(options.scopeSeparator ?? ' '));
      for (const [name, value] of Object.entries(options.authorizeParams ?? {})) url.searchParams.set(name, value);
      return url.toString();
    },
    exchangeCode: (http, client, code, redirectUri) =>
      requestTokens(http, endpoint(options.tokenUrl, client), {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
    refresh: (http, client, refreshToken) =>
      requestTokens(http, endpoint(options.tokenUrl, client), {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
    profile: options.profile,
    ...(options.isStillVerified && { isStillVerified: options.isStillVerified }),
    headers:
      options.headers ??
      ((data): Readonly<Record<string, string>> =>
        typeof data.accessToken === 'string' ? { authorization: `Bearer ${data.accessToken}` } : {}),
  };
};
