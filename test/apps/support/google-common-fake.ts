/**
 * A fake of Google for the Google apps' tests: its OAuth2 token endpoint (`POST /token`, as
 * oauth2.googleapis.com answers), the People API's `people/me`, and the routes of the API a test
 * fakes, all on one server (the apps' `APP_BASE_URL_<KEY>` and `APP_AUTH_URL_<KEY>` point there,
 * which moves their related APIs too). Requests need a current access token, else Google's 401.
 *
 *   const google = await startFakeGoogle({ 'GET /drive/v3/files': (req) => ({ files: [] }) });
 *   await runAppAction(app, 'createThing', google.call({ title: 'x' }));
 *   describeGoogleConnection(() => ({ app, google, scopes: [...], refreshedBy: { key, parameters, route } }));
 *   describeServiceAccount(() => ({ app, google, scopes: [...], step: { kind, key, parameters, route } }));
 */
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runAppAction, runAppTrigger, TEST_REDIRECT_URI, verifyAppAuth } from '../../../adapters/apps/app-harness.js';
import type { App } from '../../../adapters/apps/sdk/index.js';
import type { Credentials } from '../../../core/domain/app.js';
import type { CredentialCheck } from '../../../ports/app-catalog.js';
import { type FakeHandler, type FakeVendor, reply, startFakeVendor } from '../../support/fake-vendor.js';

export const GOOGLE_CLIENT = {
  clientId: '1234-fake.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-fake-client-secret',
};

export const FIRST_TOKEN = 'ya29.first-access';
export const REFRESHED_TOKEN = 'ya29.refreshed-access';
export const SERVICE_ACCOUNT_TOKEN = 'ya29.service-account-access';
export const REFRESH_TOKEN = '1//fake-refresh-token';
export const GOOD_CODE = '4/0good-code';
/** The PKCE verifier the consent that gave GOOD_CODE was started with (its S256 challenge on the URL). */
export const GOOD_VERIFIER = 'verifier-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG';

/** Google's error answer: `{ error: { code, message, status, errors: [{ reason }] } }`. */
export const googleError = (code: number, message: string, status: string, reason?: string) =>
  reply(code, {
    error: {
      code,
      message,
      ...(reason && { errors: [{ message, domain: 'global', reason }] }),
      status,
    },
  });

export interface FakeGoogle {
  readonly vendor: FakeVendor;
  readonly url: string;
  /** Access tokens Google takes now: the first one, and the refreshed one once refreshed. */
  readonly validTokens: Set<string>;
  /**
   * A service account's JSON key file (its token_uri Google's: APP_AUTH_URL_<KEY> moves it here);
   * the fake keeps the public key and grants a token for assertions it signed with `scopes`.
   */
  serviceAccountKey(email: string, scopes: readonly string[]): string;
  /** The claims of each assertion the fake accepted. */
  readonly assertions: Record<string, unknown>[];
  /** What a step call needs: parameters, a connection with the first token, the fake's addresses. */
  call(parameters?: Readonly<Record<string, unknown>>): {
    parameters: Readonly<Record<string, unknown>>;
    auth: Readonly<Record<string, unknown>>;
    oauthClient: typeof GOOGLE_CLIENT;
    baseUrl: string;
    authUrl: string;
  };
  close(): Promise<void>;
}

const bearer = (authorization: string | undefined) => authorization?.replace(/^Bearer /, '') ?? '';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The claims of an RS256 assertion signed by one of the keys, or null. */
const verifiedClaims = (assertion: string, keys: ReadonlyMap<string, KeyObject>): Record<string, unknown> | null => {
  const [header = '', payload = '', signature = ''] = assertion.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const key = keys.get(String(claims.iss));
  if (!key || JSON.parse(Buffer.from(header, 'base64url').toString('utf8')).alg !== 'RS256') return null;
  const signed = verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'));
  return signed ? claims : null;
};

export const startFakeGoogle = async (routes: Readonly<Record<string, FakeHandler>>): Promise<FakeGoogle> => {
  const validTokens = new Set([FIRST_TOKEN]);
  const serviceAccounts = new Map<string, KeyObject>();
  const grantedScopes = new Map<string, string>();
  const assertions: Record<string, unknown>[] = [];
  const vendor = await startFakeVendor({
    authorize: (req) => req.path === '/token' || validTokens.has(bearer(req.headers.authorization)),
    unauthorized: googleError(
      401,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      'UNAUTHENTICATED',
    ),
    rateLimited: googleError(
      429,
      "Quota exceeded for quota metric 'Requests'.",
      'RESOURCE_EXHAUSTED',
      'rateLimitExceeded',
    ),
    routes: {
      'POST /token': (req) => {
        const form = req.body as Record<string, string>;
        if (form.grant_type === JWT_BEARER) {
          const claims = verifiedClaims(form.assertion ?? '', serviceAccounts);
          const now = Date.now() / 1000;
          if (
            claims?.aud !== 'https://oauth2.googleapis.com/token' ||
            claims.scope !== grantedScopes.get(String(claims.iss)) ||
            Number(claims.exp) < now
          ) {
            return reply(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
          }
          assertions.push(claims);
          validTokens.add(SERVICE_ACCOUNT_TOKEN);
          return { access_token: SERVICE_ACCOUNT_TOKEN, expires_in: 3599, token_type: 'Bearer' };
        }
        if (form.client_id !== GOOGLE_CLIENT.clientId || form.client_secret !== GOOGLE_CLIENT.clientSecret) {
          return reply(401, { error: 'invalid_client', error_description: 'Unauthorized' });
        }
        if (form.grant_type === 'authorization_code') {
          if (form.code !== GOOD_CODE || !form.redirect_uri) {
            return reply(400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
          }
          if (form.code_verifier !== GOOD_VERIFIER) {
            return reply(400, { error: 'invalid_grant', error_description: 'Invalid code verifier.' });
          }
          return {
            access_token: FIRST_TOKEN,
            expires_in: 3599,
            refresh_token: REFRESH_TOKEN,
            scope: 'openid https://www.googleapis.com/auth/userinfo.email',
            token_type: 'Bearer',
          };
        }
        if (form.grant_type === 'refresh_token' && form.refresh_token === REFRESH_TOKEN) {
          validTokens.add(REFRESHED_TOKEN);
          // Google keeps the refresh token: a refresh answers none.
          return { access_token: REFRESHED_TOKEN, expires_in: 3599, token_type: 'Bearer' };
        }
        return reply(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      },
      'GET /v1/people/me': (req) =>
        req.query.personFields === 'names,emailAddresses'
          ? {
              resourceName: 'people/1077',
              etag: '%EgUBAi43PRoEAQIFByIMR0xDNmR2Vk1sZ1U9',
              names: [
                { metadata: { primary: false, source: { type: 'CONTACT' } }, displayName: 'Ann (contact)' },
                { metadata: { primary: true, source: { type: 'PROFILE' } }, displayName: 'Ann Lee' },
              ],
              emailAddresses: [{ metadata: { primary: true }, value: 'ann@example.com' }],
            }
          : googleError(400, 'personFields mask is required.', 'INVALID_ARGUMENT'),
      ...routes,
    },
  });
  return {
    vendor,
    url: vendor.url,
    validTokens,
    assertions,
    serviceAccountKey(email, scopes) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      serviceAccounts.set(email, createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })));
      grantedScopes.set(email, scopes.join(' '));
      return JSON.stringify({
        type: 'service_account',
        project_id: 'fake-project',
        private_key_id: 'key-1',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        client_email: email,
        client_id: '1234567890',
        token_uri: 'https://oauth2.googleapis.com/token',
      });
    },
    call: (parameters = {}) => ({
      parameters,
      auth: { accessToken: FIRST_TOKEN, refreshToken: REFRESH_TOKEN, tokenType: 'Bearer' },
      oauthClient: GOOGLE_CLIENT,
      baseUrl: vendor.url,
      authUrl: vendor.url,
    }),
    close: () => vendor.close(),
  };
};

export interface GoogleConnectionCase {
  readonly app: App;
  readonly google: FakeGoogle;
  /** The app's own scopes, before the identity ones every Google app asks. */
  readonly scopes: readonly string[];
  /** A step that calls the app's API, and the fake's route it reaches: it must refresh a stale token. */
  readonly refreshedBy: {
    readonly kind: 'action' | 'trigger';
    readonly key: string;
    readonly parameters: Readonly<Record<string, unknown>>;
    readonly route: string;
  };
}

/**
 * Checks credentials as connecting in the console does, through the catalog at the fake's
 * addresses, with the PKCE verifier the consent was started with.
 */
export const verifyGoogle = (
  app: App,
  google: FakeGoogle,
  credentials: Credentials,
  codeVerifier: string | null = GOOD_VERIFIER,
): Promise<CredentialCheck> =>
  verifyAppAuth(app, credentials, {
    baseUrl: google.url,
    authUrl: google.url,
    oauthClient: GOOGLE_CLIENT,
    codeVerifier,
  });

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * The Google OAuth2 connection every Google app shares: consent URL with a PKCE challenge, code
 * exchange with the verifier and the person's name, Google's refusal, and a stale token refreshed
 * on 401.
 */
export const describeGoogleConnection = (setup: () => GoogleConnectionCase) =>
  describe('connection (Google OAuth2)', () => {
    it('sends the user to Google with the scopes, offline access, consent and a PKCE challenge', () => {
      const { app, scopes } = setup();
      if (app.auth.kind !== 'oauth2') throw new Error('not an OAuth2 app');
      const url = new URL(
        app.auth.authorizationUrl(GOOGLE_CLIENT, {
          redirectUri: TEST_REDIRECT_URI,
          state: 's1',
          codeVerifier: GOOD_VERIFIER,
        }),
      );
      expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        client_id: GOOGLE_CLIENT.clientId,
        redirect_uri: TEST_REDIRECT_URI,
        state: 's1',
        response_type: 'code',
        scope: [
          ...scopes,
          'https://www.googleapis.com/auth/userinfo.email',
          'https://www.googleapis.com/auth/userinfo.profile',
        ].join(' '),
        access_type: 'offline',
        prompt: 'consent',
        code_challenge: s256(GOOD_VERIFIER),
        code_challenge_method: 'S256',
      });
      expect(app.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    });

    it("exchanges the code at Google's token endpoint and names the connection from people/me", async () => {
      const { app, google } = setup();
      const check = await verifyGoogle(app, google, { code: GOOD_CODE, state: 's1' });
      expect(check).toMatchObject({ ok: true, screenName: 'Ann Lee - ann@example.com' });
      expect(google.vendor.calls('POST /token').at(-1)?.body).toEqual({
        grant_type: 'authorization_code',
        code: GOOD_CODE,
        redirect_uri: TEST_REDIRECT_URI,
        code_verifier: GOOD_VERIFIER,
        client_id: GOOGLE_CLIENT.clientId,
        client_secret: GOOGLE_CLIENT.clientSecret,
      });
      expect(google.vendor.calls('GET /v1/people/me').at(-1)?.headers.authorization).toBe(`Bearer ${FIRST_TOKEN}`);
      if (check.ok) expect(check.credentials).toMatchObject({ accessToken: FIRST_TOKEN, refreshToken: REFRESH_TOKEN });
    });

    it("refuses a bad code or verifier with Google's reason, and a revoked token with Google's message", async () => {
      const { app, google } = setup();
      expect(await verifyGoogle(app, google, { code: '4/0stale', state: 's1' })).toEqual({
        ok: false,
        reason: 'Authorization failed: Malformed auth code.',
      });
      expect(
        await verifyGoogle(app, google, { code: GOOD_CODE }, 'another-verifier-0123456789-abcdefghijklmnop'),
      ).toEqual({
        ok: false,
        reason: 'Authorization failed: Invalid code verifier.',
      });
      // A code that did not come back to a consent started here has no verifier: Google is not asked.
      const before = google.vendor.calls('POST /token').length;
      expect(await verifyGoogle(app, google, { code: GOOD_CODE }, null)).toMatchObject({ ok: false });
      expect(google.vendor.calls('POST /token')).toHaveLength(before);
      const revoked = await verifyGoogle(app, google, { accessToken: 'ya29.revoked' });
      expect(revoked).toMatchObject({
        ok: false,
        reason: expect.stringContaining('invalid authentication credentials'),
      });
    });

    it('refreshes a token Google no longer takes, once, and retries with the new one', async () => {
      const { app, google, refreshedBy } = setup();
      const before = google.vendor.calls('POST /token').length;
      const call = {
        ...google.call(refreshedBy.parameters),
        auth: { accessToken: 'ya29.stale', refreshToken: REFRESH_TOKEN },
      };
      await (refreshedBy.kind === 'action'
        ? runAppAction(app, refreshedBy.key, call)
        : runAppTrigger(app, refreshedBy.key, call));
      const refreshes = google.vendor.calls('POST /token').slice(before);
      expect(refreshes.map((request) => (request.body as Record<string, string>).grant_type)).toEqual([
        'refresh_token',
      ]);
      expect(google.vendor.calls(refreshedBy.route).at(-1)?.headers.authorization).toBe(`Bearer ${REFRESHED_TOKEN}`);
    });
  });

export interface ServiceAccountCase {
  readonly app: App;
  readonly google: FakeGoogle;
  readonly scopes: readonly string[];
  /** A step that calls the app's API, and the fake's route it reaches. */
  readonly step: GoogleConnectionCase['refreshedBy'];
}

/** The service-account variant of an app: the key signs in, and steps carry the token it got. */
export const describeServiceAccount = (setup: () => ServiceAccountCase) =>
  describe('connection (Google service account)', () => {
    it("takes the JSON key, signs in with the app's scopes and is named after the client e-mail", async () => {
      const { app, google, scopes } = setup();
      expect(app.manifest.auth.kind).toBe('fields');
      expect(app.manifest.auth.fields.map((field) => field.key)).toEqual(['serviceAccountKey', 'subject']);
      const key = google.serviceAccountKey('robot@fake-project.iam.gserviceaccount.com', scopes);
      const check = await verifyGoogle(app, google, { serviceAccountKey: key });
      expect(check).toMatchObject({ ok: true, screenName: 'robot@fake-project.iam.gserviceaccount.com' });
      expect(google.assertions.at(-1)).toMatchObject({
        iss: 'robot@fake-project.iam.gserviceaccount.com',
        scope: scopes.join(' '),
        aud: 'https://oauth2.googleapis.com/token',
      });
    });

    it('runs a step with the service account token', async () => {
      const { app, google, scopes, step } = setup();
      const key = google.serviceAccountKey('bot@fake-project.iam.gserviceaccount.com', scopes);
      const call = {
        parameters: step.parameters,
        auth: { serviceAccountKey: key },
        baseUrl: google.url,
        authUrl: google.url,
      };
      await (step.kind === 'action' ? runAppAction(app, step.key, call) : runAppTrigger(app, step.key, call));
      expect(google.vendor.calls(step.route).at(-1)?.headers.authorization).toBe(`Bearer ${SERVICE_ACCOUNT_TOKEN}`);
    });

    it("refuses a key that is not a service account's", async () => {
      const { app, google } = setup();
      expect(await verifyGoogle(app, google, { serviceAccountKey: '{"type":"authorized_user"}' })).toMatchObject({
        ok: false,
      });
    });
  });
