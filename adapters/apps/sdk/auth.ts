import type * as v from 'valibot';
import type { AuthDescription, Credentials } from '../../../core/domain/app.js';
import { type ArgumentMap, describeArguments, type InferParameters, parametersSchema } from './arguments.js';
import type { AppContext, AuthAccess, NoParameters } from './context.js';
import type { TokenGrant } from './token-grant.js';
import { validate } from './validation.js';

export interface Verified {
  /** How the connection is shown (an account name, `user@host`...); null when there is none. */
  readonly screenName: string | null;
}

export interface NoAuthDefinition {
  readonly kind: 'none';
  readonly description: AuthDescription;
}

/** For apps that need no connection (formatters, schedulers...). */
export const noAuth = (): NoAuthDefinition => ({
  kind: 'none',
  description: { kind: 'none', fields: [], clientFields: [] },
});

export type FieldsAuthContext<F extends ArgumentMap> = AppContext<NoParameters, AuthAccess<InferParameters<F>, null>>;

export interface FieldsAuthDefinition<F extends ArgumentMap = ArgumentMap> {
  readonly kind: 'fields';
  readonly fields: F;
  readonly schema: v.GenericSchema<unknown, InferParameters<F>>;
  readonly description: AuthDescription;
  /** Asks the remote service whether the credentials work; throws with the remote reason if not. */
  verify(ctx: FieldsAuthContext<F>): Promise<Verified>;
  /** A cheaper re-check of stored credentials; by default `verify` runs again. */
  isStillVerified?(ctx: FieldsAuthContext<F>): Promise<boolean>;
  /** Headers `ctx.http` adds to requests to the app's base URL (e.g. an API key). */
  headers?(data: InferParameters<F>): Readonly<Record<string, string>>;
  /** Query parameters `ctx.http` adds to requests to the app's base URL (an API key some vendors take there). */
  query?(data: InferParameters<F>): Readonly<Record<string, string>>;
  /**
   * Fields that get an access token (a client-credentials grant, a service account's JWT): the
   * token is cached in the credentials, renewed before it expires and on a 401, and its headers
   * are the ones sent.
   */
  readonly token?: TokenGrant;
  /** The stored credentials, parsed; throws (naming fields, never values) when they no longer fit. */
  read(auth: Pick<AuthAccess<Credentials, unknown>, 'data'>): InferParameters<F>;
}

export interface FieldsAuthOptions<F extends ArgumentMap> {
  readonly fields: F;
  verify(ctx: FieldsAuthContext<F>): Promise<Verified>;
  isStillVerified?(ctx: FieldsAuthContext<F>): Promise<boolean>;
  headers?(data: InferParameters<F>): Readonly<Record<string, string>>;
  query?(data: InferParameters<F>): Readonly<Record<string, string>>;
}

/** Reads a value that must fit a schema, naming only the fields at fault when it does not. */
export const readWith = <T>(schema: v.GenericSchema<unknown, T>, data: unknown, what: string): T => {
  const parsed = validate(schema, data);
  if (parsed.ok) return parsed.value;
  throw new Error(`The ${what} are incomplete or invalid: ${Object.keys(parsed.fields).join(', ')}.`);
};

/** Credentials the user types in: an API key, a username and password, a database address... */
export const fieldsAuth = <const F extends ArgumentMap>(options: FieldsAuthOptions<F>): FieldsAuthDefinition<F> => {
  const schema = parametersSchema(options.fields);
  return {
    kind: 'fields',
    fields: options.fields,
    schema,
    description: { kind: 'fields', fields: describeArguments(options.fields), clientFields: [] },
    verify: options.verify,
    ...(options.isStillVerified && { isStillVerified: options.isStillVerified }),
    ...(options.headers && { headers: options.headers }),
    ...(options.query && { query: options.query }),
    read: (auth) => readWith(schema, auth.data, 'connection credentials'),
  };
};
