import type { ArgumentMap, InferParameters } from './arguments.js';
import { type FieldsAuthContext, type FieldsAuthDefinition, fieldsAuth, type Verified } from './auth.js';
import { cachedTokenGrant } from './cached-token.js';
import { clientIdentity } from './oauth2.js';
import { type ClientAuthentication, requestTokens } from './token-endpoint.js';

export type ClientCredentialFields<F extends ArgumentMap> = typeof clientIdentity & F;

/** The parsed fields: the client's, then the app's own. */
export type ClientCredentialValues<F extends ArgumentMap> = {
  readonly clientId: string;
  readonly clientSecret: string;
} & InferParameters<F>;

export interface ClientCredentialsAuthOptions<F extends ArgumentMap> {
  /** The token endpoint, or a function of the fields (a tenant's own domain). */
  readonly tokenUrl: string | ((fields: ClientCredentialValues<F>) => string);
  readonly scopes: readonly string[];
  /** Most providers separate scopes with a space (RFC 6749); a few want a comma. */
  readonly scopeSeparator?: string;
  /** Extra parameters of the token request (an `audience`, a `resource`...). */
  tokenParams?(fields: ClientCredentialValues<F>): Readonly<Record<string, string>>;
  /** HTTP Basic (the default: RFC 6749 makes every server accept it) or the secret in the form body. */
  readonly clientAuthentication?: ClientAuthentication;
  /** Fields besides the client id and secret (a tenant, an account id...). */
  readonly fields?: F;
  /** Runs once a token was obtained; by default the connection is named after its client id. */
  verify?(ctx: FieldsAuthContext<ClientCredentialFields<F>>): Promise<Verified>;
  isStillVerified?(ctx: FieldsAuthContext<ClientCredentialFields<F>>): Promise<boolean>;
  /** Headers requests to the app's base URL carry; by default `Authorization: Bearer <token>`. */
  headers?(accessToken: string, fields: ClientCredentialValues<F>): Readonly<Record<string, string>>;
}

/**
 * A connection made of a client id and secret (plus fields of the app's) that gets its access
 * token with the client-credentials grant (RFC 6749 §4.4). The token is cached in the
 * credentials and asked for again before it expires, on a 401, and once the fields change.
 */
export const oauth2ClientCredentialsAuth = <const F extends ArgumentMap = Record<never, never>>(
  options: ClientCredentialsAuthOptions<F>,
): FieldsAuthDefinition<ClientCredentialFields<F>> => {
  const fields = { ...clientIdentity, ...options.fields } as ClientCredentialFields<F>;
  const tokenUrl = (values: ClientCredentialValues<F>) =>
    typeof options.tokenUrl === 'string' ? options.tokenUrl : options.tokenUrl(values);
  const definition = fieldsAuth({
    fields,
    verify: options.verify ?? (async (ctx) => ({ screenName: (ctx.auth.data as ClientCredentialValues<F>).clientId })),
    ...(options.isStillVerified && { isStillVerified: options.isStillVerified }),
  });
  return {
    ...definition,
    token: cachedTokenGrant({
      read: (stored) => definition.read({ data: stored }) as ClientCredentialValues<F>,
      source: (values) => [tokenUrl(values), options.scopes, values],
      request: (http, values) =>
        requestTokens(
          http,
          tokenUrl(values),
          {
            grant_type: 'client_credentials',
            ...(options.scopes.length > 0 && { scope: options.scopes.join(options.scopeSeparator ?? ' ') }),
            ...options.tokenParams?.(values),
          },
          { id: values.clientId, secret: values.clientSecret, authentication: options.clientAuthentication ?? 'basic' },
        ),
      ...(options.headers && { headers: options.headers }),
    }),
  };
};
