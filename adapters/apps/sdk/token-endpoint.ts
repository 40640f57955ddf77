import type { Credentials } from '../../../core/domain/app.js';
import type { HttpClient } from './http-client.js';
import { isRetryableStatus, remoteMessageOf } from './http-errors.js';
import { TemporaryError } from './temporary-error.js';

/** The provider refused a code, a refresh token or a grant; the message is the provider's reason. */
export class OAuth2Error extends Error {
  override readonly name = 'OAuth2Error';
  /** The provider's `error` code (`invalid_grant`, `invalid_client`...), when it gave one. */
  readonly code: string | null;

  constructor(message?: string, options: ErrorOptions & { readonly code?: string | null } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code ?? null;
  }
}

/**
 * How a client proves itself at the token endpoint: its secret in the form body
 * (`client_secret_post`) or as HTTP Basic credentials (`client_secret_basic`, which RFC 6749 makes
 * every server accept).
 */
export type ClientAuthentication = 'body' | 'basic';

/**
 * How the token request's parameters travel: a form, as RFC 6749 wants (the default), or a JSON
 * object, for the few providers that take nothing else (Notion).
 */
export type TokenRequestFormat = 'form' | 'json';

export interface TokenClient {
  readonly id: string;
  readonly secret: string;
  readonly authentication: ClientAuthentication;
  /** `form` when absent. */
  readonly format?: TokenRequestFormat;
}

/**
 * Picks values of a token endpoint's answer besides the standard ones, to keep with the tokens:
 * Slack's user token (`authed_user.access_token`), Salesforce's `instance_url`... Text values only;
 * the standard keys are not replaced.
 */
export type TokenAnswerValues = (answer: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>;

/** What a token endpoint answered, as stored in a connection's credentials. */
export interface TokenAnswer {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly tokenType?: string;
  readonly scope?: string;
  /** ISO time the access token expires, when the provider says. */
  readonly expiresAt?: string;
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

/** RFC 6749 §2.3.1: the id and secret are form-encoded before they are joined for Basic. */
const formEncoded = (value: string) => new URLSearchParams([['', value]]).toString().slice(1);

const basic = (client: TokenClient) =>
  `Basic ${Buffer.from(`${formEncoded(client.id)}:${formEncoded(client.secret)}`).toString('base64')}`;

/**
 * The request's parameters with the client's: its id, and its secret when it goes in the body. A
 * JSON request with Basic credentials names the client only there, as its providers document.
 */
const tokenBody = (form: Readonly<Record<string, string>>, client: TokenClient | null) => {
  const json = client?.format === 'json';
  const entries: Record<string, string> = { ...form };
  if (client && (!json || client.authentication === 'body')) entries.client_id = client.id;
  if (client?.authentication === 'body') entries.client_secret = client.secret;
  return json ? entries : new URLSearchParams(entries);
};

/**
 * One request to a token endpoint (a form, as RFC 6749 wants, or JSON where the client says so),
 * and its answer as credentials. A refusal throws OAuth2Error with the provider's reason and code;
 * an answer that may pass (429, 5xx) throws TemporaryError, so that a run tries again later.
 */
export const requestTokens = async (
  http: HttpClient,
  tokenUrl: string,
  form: Readonly<Record<string, string>>,
  client: TokenClient | null,
  /** Further values of the answer the connection keeps (a second token, the account's server). */
  keep?: TokenAnswerValues,
): Promise<TokenAnswer> => {
  const response = await http.request({
    method: 'POST',
    url: tokenUrl,
    body: tokenBody(form, client),
    headers: {
      accept: 'application/json',
      ...(client?.authentication === 'basic' && { authorization: basic(client) }),
    },
    throwHttpErrors: false,
    maxRedirects: 0,
  });
  const answer = tokenAnswer(response.data, response.headers['content-type'] ?? '');
  // Some providers (GitHub) report a refused code with status 200 and an `error` field.
  if (response.status >= 400 || !answer || answer.error !== undefined) {
    const reason = remoteMessageOf(answer ?? response.data) ?? `the token endpoint answered ${response.status}`;
    if (isRetryableStatus(response.status)) throw new TemporaryError(`Authorization failed: ${reason}`);
    throw new OAuth2Error(`Authorization failed: ${reason}`, {
      code: typeof answer?.error === 'string' ? answer.error : null,
    });
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
  if (answer.expires_in !== undefined && answer.expires_in !== null && Number.isFinite(expiresIn)) {
    tokens.expiresAt = new Date(Date.now() + expiresIn * 1000).toISOString();
  }
  for (const [key, value] of Object.entries(keep?.(answer) ?? {})) {
    if (typeof value === 'string' && value !== '' && !(key in tokens)) tokens[key] = value;
  }
  return tokens as unknown as TokenAnswer;
};

/** The credentials without the given keys (tokens of an earlier grant that must not outlive it). */
export const withoutKeys = (credentials: Credentials, keys: readonly string[]): Credentials =>
  Object.fromEntries(Object.entries(credentials).filter(([key]) => !keys.includes(key)));
