import { createHash, generateKeyPairSync, type KeyObject, randomBytes, verify } from 'node:crypto';
import { type RecordedRequest, sendJson, startHttpServer } from '../apps/support/http-server.js';

/**
 * A fake OAuth 2.0 authorization server and API on 127.0.0.1, for apps' auth tests.
 *
 *   const fake = await startFakeOAuth({ accessTokenSeconds: 3600, tokenDelayMs: 0, requirePkce: false });
 *   fake.client            { clientId, clientSecret }, the one confidential client it knows
 *   fake.authorizeUrl      GET: consents at once, redirecting to redirect_uri with code and state
 *                          (records the query in fake.authorizations, its code_challenge included)
 *   fake.tokenUrl          POST: grants authorization_code (checks redirect_uri and the PKCE
 *                          verifier, S256), refresh_token (rotates it; a reused one revokes its
 *                          family: RFC 9700's reuse detection), client_credentials, and
 *                          urn:ietf:params:oauth:grant-type:jwt-bearer (an RS256 assertion checked
 *                          with the public key of a service account made by fake.serviceAccount).
 *                          The client authenticates in the body or with HTTP Basic. Refusals are
 *                          RFC 6749 errors: 401 invalid_client, 400 invalid_grant...
 *   fake.apiUrl            GET /me with a live Bearer token answers { sub, via }; else 401.
 *   fake.grants            how many token requests each grant type got (refused ones too)
 *   fake.tokenRequests     each token request's form, with the client it authenticated as
 *   fake.apiCalls          each API call's path and the token it carried
 *   fake.revoke(token)     revokes a refresh token and all of its family (the provider's "remove access");
 *                          revokeAll() for every grant it made
 *   fake.expire(token)     an access token stops working (expired early); expireAll() for all of them
 *   fake.outage(true)      the token endpoint answers 503 until outage(false)
 *   fake.serviceAccount(email)  a new RSA key pair: the JSON key file (as text) whose token_uri is
 *                          this server; the server keeps the public key
 *   fake.close()
 *
 *   followConsent(url)     what a browser does with a consent URL: the code, state or error the
 *                          redirect carries back
 */
export interface FakeOAuthOptions {
  /** `expires_in` of the access tokens it issues; default 3600. */
  readonly accessTokenSeconds?: number;
  /** Each token answer waits this long, so that concurrent requests overlap; default 0. */
  readonly tokenDelayMs?: number;
  /** Refuse consent requests without an S256 code challenge; default false. */
  readonly requirePkce?: boolean;
}

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials' | 'jwt_bearer';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

interface Code {
  readonly redirectUri: string;
  readonly challenge: string | null;
}

interface AccessToken {
  readonly subject: string;
  readonly via: GrantType;
  readonly family: string | null;
}

const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('base64url')}`;
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const refuse = (status: number, error: string, description: string) => ({
  status,
  body: { error, error_description: description },
});

export const startFakeOAuth = async (options: FakeOAuthOptions = {}) => {
  const client = { clientId: 'fake-client', clientSecret: `fake-secret-${randomBytes(6).toString('hex')}` };
  const expiresIn = options.accessTokenSeconds ?? 3600;
  const codes = new Map<string, Code>();
  /** Refresh tokens by value: their family, and whether they were spent already. */
  const refreshTokens = new Map<string, { family: string; spent: boolean }>();
  const revokedFamilies = new Set<string>();
  const accessTokens = new Map<string, AccessToken>();
  const serviceAccounts = new Map<string, KeyObject>();
  const grants: Record<GrantType, number> = {
    authorization_code: 0,
    refresh_token: 0,
    client_credentials: 0,
    jwt_bearer: 0,
  };
  const authorizations: Record<string, string>[] = [];
  const tokenRequests: { form: Record<string, string>; clientId: string | null }[] = [];
  const apiCalls: { path: string; token: string | null }[] = [];
  let tokenUrl = '';
  let down = false;

  const issue = (subject: string, via: GrantType, family: string | null) => {
    const access = token('access');
    accessTokens.set(access, { subject, via, family });
    const answer: Record<string, unknown> = { access_token: access, token_type: 'Bearer', expires_in: expiresIn };
    if (family) {
      const refresh = token('refresh');
      refreshTokens.set(refresh, { family, spent: false });
      answer.refresh_token = refresh;
    }
    return { status: 200, body: answer };
  };

  /** The client the request authenticates as (HTTP Basic or the form body), or null. */
  const authenticatedClient = (request: RecordedRequest, form: URLSearchParams) => {
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    if (basic) {
      const [user, password] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      id = decodeURIComponent((user ?? '').replace(/\+/g, ' '));
      secret = decodeURIComponent((password ?? '').replace(/\+/g, ' '));
    }
    return id === client.clientId && secret === client.clientSecret ? id : null;
  };

  const jwtBearer = (assertion: string) => {
    const [header, claims, signature] = assertion.split('.');
    if (!header || !claims || !signature) return refuse(400, 'invalid_grant', 'The assertion is not a JWT.');
    const read = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, any>;
    const { alg } = read(header);
    const payload = read(claims);
    const key = serviceAccounts.get(String(payload.iss));
    if (alg !== 'RS256' || !key) return refuse(400, 'invalid_grant', 'Unknown service account or algorithm.');
    const signed = verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), key, Buffer.from(signature, 'base64url'));
    if (!signed) return refuse(400, 'invalid_grant', 'Invalid JWT Signature.');
    const now = Math.floor(Date.now() / 1000);
    if (payload.aud !== tokenUrl) return refuse(400, 'invalid_grant', 'Invalid JWT audience.');
    if (!(payload.exp > now) || payload.iat > now + 60 || payload.exp - payload.iat > 3600) {
      return refuse(
        400,
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.',
      );
    }
    return issue(typeof payload.sub === 'string' ? payload.sub : payload.iss, 'jwt_bearer', null);
  };

  const tokenEndpoint = (request: RecordedRequest) => {
    const form = new URLSearchParams(request.body);
    const grantType = form.get('grant_type');
    const clientId = grantType === JWT_BEARER ? null : authenticatedClient(request, form);
    tokenRequests.push({ form: Object.fromEntries(form), clientId });
    if (grantType === JWT_BEARER) {
      grants.jwt_bearer++;
      return jwtBearer(form.get('assertion') ?? '');
    }
    if (grantType === 'authorization_code' || grantType === 'refresh_token' || grantType === 'client_credentials') {
      grants[grantType]++;
    }
    if (!clientId) return refuse(401, 'invalid_client', 'Client authentication failed.');
    if (grantType === 'client_credentials') return issue(clientId, 'client_credentials', null);
    if (grantType === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!code) return refuse(400, 'invalid_grant', 'The authorization code is invalid or was used.');
      if (code.redirectUri !== form.get('redirect_uri')) return refuse(400, 'invalid_grant', 'redirect_uri differs.');
      const verifier = form.get('code_verifier');
      if (code.challenge !== null && (verifier === null || s256(verifier) !== code.challenge)) {
        return refuse(400, 'invalid_grant', 'PKCE verification failed.');
      }
      return issue('fake-user', 'authorization_code', token('family'));
    }
    if (grantType === 'refresh_token') {
      const held = refreshTokens.get(form.get('refresh_token') ?? '');
      if (!held || revokedFamilies.has(held.family)) {
        return refuse(400, 'invalid_grant', 'The refresh token is invalid or was revoked.');
      }
      if (held.spent) {
        // A spent refresh token coming back means two holders: the whole family is revoked.
        revokedFamilies.add(held.family);
        return refuse(400, 'invalid_grant', 'The refresh token was already used.');
      }
      held.spent = true;
      return issue('fake-user', 'authorization_code', held.family);
    }
    return refuse(400, 'unsupported_grant_type', `Unsupported grant type ${grantType}.`);
  };

  const live = (value: string | null) => {
    const found = value ? accessTokens.get(value) : undefined;
    return found && !(found.family && revokedFamilies.has(found.family)) ? found : null;
  };

  const server = await startHttpServer(async (request, res) => {
    const url = new URL(request.url, 'http://fake');
    if (request.method === 'GET' && url.pathname === '/authorize') {
      const query = Object.fromEntries(url.searchParams);
      authorizations.push(query);
      const back = new URL(query.redirect_uri ?? '');
      const challenge = query.code_challenge_method === 'S256' ? (query.code_challenge ?? null) : null;
      if (query.client_id !== client.clientId || (options.requirePkce && challenge === null)) {
        back.searchParams.set('error', query.client_id !== client.clientId ? 'unauthorized_client' : 'invalid_request');
      } else {
        const code = token('code');
        codes.set(code, { redirectUri: query.redirect_uri ?? '', challenge });
        back.searchParams.set('code', code);
      }
      if (query.state !== undefined) back.searchParams.set('state', query.state);
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (request.method === 'POST' && url.pathname === '/token') {
      if (options.tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, options.tokenDelayMs));
      if (down) return sendJson(res, 503, { error: 'temporarily_unavailable', error_description: 'Try again later.' });
      const { status, body } = tokenEndpoint(request);
      return sendJson(res, status, body);
    }
    if (url.pathname.startsWith('/api/')) {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? null;
      apiCalls.push({ path: url.pathname.slice(4), token: bearer });
      const holder = live(bearer);
      if (!holder)
        return sendJson(res, 401, { error: 'invalid_token', error_description: 'The access token is invalid.' });
      if (request.method === 'GET' && url.pathname === '/api/me') {
        return sendJson(res, 200, { sub: holder.subject, via: holder.via });
      }
      return sendJson(res, 404, { error: 'not_found' });
    }
    return sendJson(res, 404, { error: 'not_found' });
  });
  tokenUrl = `${server.url}/token`;

  return {
    url: server.url,
    authorizeUrl: `${server.url}/authorize`,
    tokenUrl,
    apiUrl: `${server.url}/api`,
    client,
    grants,
    authorizations,
    tokenRequests,
    apiCalls,
    revoke(refreshToken: string) {
      const held = refreshTokens.get(refreshToken);
      if (!held) throw new Error('The fake never issued that refresh token.');
      revokedFamilies.add(held.family);
    },
    revokeAll() {
      for (const { family } of refreshTokens.values()) revokedFamilies.add(family);
    },
    expire: (accessToken: string) => void accessTokens.delete(accessToken),
    expireAll: () => accessTokens.clear(),
    outage: (on: boolean) => {
      down = on;
    },
    serviceAccount(clientEmail: string) {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      serviceAccounts.set(clientEmail, publicKey);
      return JSON.stringify({
        type: 'service_account',
        project_id: 'fake-project',
        private_key_id: randomBytes(20).toString('hex'),
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        client_email: clientEmail,
        client_id: '100000000000000000001',
        token_uri: tokenUrl,
      });
    },
    close: server.close,
  };
};

export type FakeOAuth = Awaited<ReturnType<typeof startFakeOAuth>>;

/** Opens a consent URL as the user's browser would and reads where it sends them back. */
export const followConsent = async (consentUrl: string) => {
  const res = await fetch(consentUrl, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`The consent page answered ${res.status}, no redirect.`);
  const back = new URL(location);
  return {
    redirectedTo: `${back.origin}${back.pathname}`,
    code: back.searchParams.get('code'),
    state: back.searchParams.get('state'),
    error: back.searchParams.get('error'),
  };
};
