import { createPrivateKey } from 'node:crypto';
import { type InferParameters, text } from './arguments.js';
import { type FieldsAuthContext, type FieldsAuthDefinition, fieldsAuth, type Verified } from './auth.js';
import { cachedTokenGrant } from './cached-token.js';
import { httpUrl } from './checks.js';
import { signRs256Jwt } from './jwt.js';
import { requestTokens } from './token-endpoint.js';

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google accepts assertions that live an hour at most. */
const ASSERTION_SECONDS = 3600;

/** The parts of a service account's JSON key file that sign in. */
export interface ServiceAccountKey {
  readonly clientEmail: string;
  readonly privateKey: string;
  readonly privateKeyId: string | null;
  readonly tokenUri: string;
}

/** The key file, or why it is not one (never repeating it: it holds the private key). */
export const parseServiceAccountKey = (text: string): ServiceAccountKey | string => {
  let key: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'must be a JSON key file.';
    key = parsed as Record<string, unknown>;
  } catch {
    return 'must be a JSON key file.';
  }
  if (key.type !== 'service_account') return 'must be the JSON key of a service account.';
  const { client_email: clientEmail, private_key: privateKey, private_key_id: keyId, token_uri: tokenUri } = key;
  if (typeof clientEmail !== 'string' || clientEmail === '') return 'has no client_email.';
  if (typeof privateKey !== 'string') return 'has no private_key.';
  try {
    createPrivateKey(privateKey);
  } catch {
    return 'has a private_key that is not a PEM private key.';
  }
  if (tokenUri !== undefined && (typeof tokenUri !== 'string' || httpUrl(tokenUri))) {
    return 'has a token_uri that is not an http or https URL.';
  }
  return {
    clientEmail,
    privateKey,
    privateKeyId: typeof keyId === 'string' && keyId !== '' ? keyId : null,
    tokenUri: typeof tokenUri === 'string' ? tokenUri : GOOGLE_TOKEN_URI,
  };
};

const serviceAccountFields = {
  serviceAccountKey: text({
    label: 'Service account key (JSON)',
    required: true,
    secret: true,
    description: 'The JSON key file of the service account, as Google Cloud’s console downloads it.',
    check: (value) => {
      const key = parseServiceAccountKey(value);
      return typeof key === 'string' ? key : null;
    },
  }),
  subject: text({
    label: 'User to act as',
    description:
      'Domain-wide delegation: the e-mail address of the Google Workspace user the service account acts for. Empty: the service account itself.',
  }),
};

export type ServiceAccountFields = typeof serviceAccountFields;

export interface GoogleServiceAccountAuthOptions {
  readonly scopes: readonly string[];
  /** Runs once a token was obtained; by default the connection is named after the key's client_email. */
  verify?(ctx: FieldsAuthContext<ServiceAccountFields>): Promise<Verified>;
  isStillVerified?(ctx: FieldsAuthContext<ServiceAccountFields>): Promise<boolean>;
}

const keyOf = (fields: InferParameters<ServiceAccountFields>): ServiceAccountKey => {
  const key = parseServiceAccountKey(fields.serviceAccountKey);
  if (typeof key === 'string') throw new Error(`The service account key ${key}`);
  return key;
};

/**
 * A Google service account: its JSON key file signs a JWT (RS256) that the key's token_uri
 * exchanges for an access token (RFC 7523's jwt-bearer grant), for the service account or, with
 * `subject`, for a Workspace user under domain-wide delegation. The token is cached in the
 * credentials and asked for again before it expires, on a 401, and once the key changes.
 */
export const googleServiceAccountAuth = (
  options: GoogleServiceAccountAuthOptions,
): FieldsAuthDefinition<ServiceAccountFields> => {
  const definition = fieldsAuth({
    fields: serviceAccountFields,
    verify: options.verify ?? (async (ctx) => ({ screenName: keyOf(ctx.auth.data).clientEmail })),
    ...(options.isStillVerified && { isStillVerified: options.isStillVerified }),
  });
  return {
    ...definition,
    token: cachedTokenGrant({
      read: (stored) => definition.read({ data: stored }),
      source: (fields) => [fields.serviceAccountKey, fields.subject ?? null, options.scopes],
      request(http, fields) {
        const key = keyOf(fields);
        const now = Math.floor(Date.now() / 1000);
        const assertion = signRs256Jwt(
          {
            iss: key.clientEmail,
            scope: options.scopes.join(' '),
            aud: key.tokenUri,
            iat: now,
            exp: now + ASSERTION_SECONDS,
            ...(fields.subject && { sub: fields.subject }),
          },
          key.privateKey,
          key.privateKeyId ?? undefined,
        );
        return requestTokens(http, key.tokenUri, { grant_type: JWT_BEARER, assertion }, null);
      },
    }),
  };
};
