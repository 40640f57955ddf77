import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/app-catalog.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import type { Credentials } from '../../core/domain/app.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeOAuth, followConsent, startFakeOAuth } from '../support/fake-oauth.js';
import { memoryConnection } from '../support/memory-connection.js';
import { pkceApp, pkceClient, tokenApps } from '../support/token-apps.js';

const REDIRECT_URI = 'https://conveyor.test/app/test-oauth-pkce/connections/callback';
const VERIFIER = 'a-verifier-of-43-characters-or-more-0123456789';

let fake: FakeOAuth;
let catalog: InProcessAppCatalog;
let logger: CapturingLogger;

beforeAll(async () => {
  fake = await startFakeOAuth({ tokenDelayMs: 50 });
});
afterAll(() => fake.close());
beforeEach(() => {
  logger = new CapturingLogger();
  catalog = createAppCatalog({ apps: tokenApps, allowPrivateNetworks: true, logger });
});
afterEach(() => catalog.close());

const oauth = (codeVerifier: string | null = VERIFIER) => ({
  client: pkceClient(fake),
  redirectUri: REDIRECT_URI,
  codeVerifier,
});

/** Consent at the fake and the code's exchange: the credentials a connection stores. */
const connect = async (): Promise<Credentials> => {
  const url = catalog.authorizationUrl(pkceApp.key, { ...oauth(), state: 's', codeVerifier: VERIFIER });
  const { code } = await followConsent(url ?? '');
  const check = await catalog.verifyCredentials(pkceApp.key, { code, state: 's' }, oauth());
  if (!check.ok) throw new Error(check.reason);
  return check.credentials;
};

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

const whoAmI = (connection: ReturnType<typeof memoryConnection>) =>
  catalog.runAction({
    appKey: pkceApp.key,
    key: 'whoAmI',
    parameters: {},
    connection: connection.use,
    execution: null,
  });

/** How many token requests of each grant the fake gets while `work` runs. */
const grantsDuring = async (work: () => Promise<unknown>) => {
  const before = { ...fake.grants };
  await work();
  return Object.fromEntries(Object.entries(fake.grants).map(([grant, n]) => [grant, n - before[grant as never]]));
};

describe('PKCE', () => {
  it('puts the S256 challenge of the verifier on the consent URL, never the verifier', () => {
    const url = new URL(
      catalog.authorizationUrl(pkceApp.key, { ...oauth(), state: 's-1', codeVerifier: VERIFIER }) ?? '',
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: fake.client.clientId,
      redirect_uri: REDIRECT_URI,
      state: 's-1',
      response_type: 'code',
      scope: 'profile write',
      code_challenge: createHash('sha256').update(VERIFIER).digest('base64url'),
      code_challenge_method: 'S256',
    });
    expect(url.toString()).not.toContain(VERIFIER);
  });

  it('computes RFC 7636’s example challenge', () => {
    const url = new URL(
      catalog.authorizationUrl(pkceApp.key, {
        ...oauth(),
        state: 's',
        codeVerifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      }) ?? '',
    );
    expect(url.searchParams.get('code_challenge')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('sends the verifier with the code, and the server’s check passes', async () => {
    const credentials = await connect();
    expect(credentials).toMatchObject({
      accessToken: expect.stringMatching(/^access-/),
      expiresAt: expect.any(String),
    });
    const exchange = fake.tokenRequests.findLast((r) => r.form.grant_type === 'authorization_code');
    expect(exchange?.form).toMatchObject({ code_verifier: VERIFIER, redirect_uri: REDIRECT_URI });
  });

  it('is refused by the server with another verifier', async () => {
    const url = catalog.authorizationUrl(pkceApp.key, { ...oauth(), state: 's', codeVerifier: VERIFIER });
    const { code } = await followConsent(url ?? '');
    const check = await catalog.verifyCredentials(pkceApp.key, { code, state: 's' }, oauth('another-verifier'));
    expect(check).toEqual({ ok: false, reason: 'Authorization failed: PKCE verification failed.' });
  });

  it('refuses to exchange a code without the verifier, before asking the server', async () => {
    const before = fake.tokenRequests.length;
    const check = await catalog.verifyCredentials(pkceApp.key, { code: 'some-code', state: 's' }, oauth(null));
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining('no code verifier') });
    expect(fake.tokenRequests.length).toBe(before);
  });
});

describe('authorization-code tokens', () => {
  it('are refreshed before a request when they expire within a minute, and stored', async () => {
    const connection = memoryConnection({ ...(await connect()), expiresAt: inSeconds(30) }, pkceClient(fake));
    const calls = fake.apiCalls.length;
    const grants = await grantsDuring(async () =>
      expect(await whoAmI(connection)).toEqual({ sub: 'fake-user', via: 'authorization_code' }),
    );
    expect(grants.refresh_token).toBe(1);
    // No 401 first: the one call carried the new token.
    const sent = fake.apiCalls.slice(calls);
    expect(sent).toEqual([{ path: '/me', token: connection.stored().accessToken }]);
    expect(connection.writes).toHaveLength(1);
    expect(Date.parse(String(connection.stored().expiresAt))).toBeGreaterThan(Date.now() + 3000_000);
  });

  it('are used as they are while their expiry is further away', async () => {
    const connection = memoryConnection(await connect(), pkceClient(fake));
    const grants = await grantsDuring(() => whoAmI(connection));
    expect(grants.refresh_token).toBe(0);
    expect(connection.writes).toEqual([]);
  });

  it('still serve until they expire while the token endpoint is away; past expiry, the step is retried later', async () => {
    const credentials = await connect();
    fake.outage(true);
    try {
      const expiring = memoryConnection({ ...credentials, expiresAt: inSeconds(30) }, pkceClient(fake));
      expect(await whoAmI(expiring)).toMatchObject({ sub: 'fake-user' });
      expect(expiring.writes).toEqual([]);
      const expired = memoryConnection({ ...credentials, expiresAt: inSeconds(-1) }, pkceClient(fake));
      const outcome = await createStepRunner(catalog, tokenApps).runAction({
        appKey: pkceApp.key,
        key: 'whoAmI',
        parameters: {},
        connection: expired.use,
        execution: null,
        store: createMemoryStore(),
      });
      expect(outcome).toMatchObject({
        kind: 'failure',
        failure: { message: 'Authorization failed: Try again later.', retryable: true },
      });
      expect(expired.verified).toBe(true);
    } finally {
      fake.outage(false);
    }
  });

  it('are refreshed at the instance’s APP_AUTH_URL_<KEY> when it names another server', async () => {
    const credentials = await connect();
    const vendor = { ...pkceClient(fake), tokenUrl: 'https://login.vendor.invalid/token' };
    const overridden = createAppCatalog({
      apps: tokenApps,
      allowPrivateNetworks: true,
      logger,
      appAddresses: { APP_AUTH_URL_TEST_OAUTH_PKCE: fake.url },
    });
    try {
      const connection = memoryConnection({ ...credentials, expiresAt: inSeconds(10) }, vendor);
      const before = fake.grants.refresh_token;
      const output = await overridden.runAction({
        appKey: pkceApp.key,
        key: 'whoAmI',
        parameters: {},
        connection: connection.use,
        execution: null,
      });
      expect(output).toMatchObject({ sub: 'fake-user' });
      expect(fake.grants.refresh_token - before).toBe(1);
    } finally {
      await overridden.close();
    }
  });

  it('are refreshed once when the API answers 401, and the request retried', async () => {
    const credentials = await connect();
    fake.expire(String(credentials.accessToken));
    const connection = memoryConnection(credentials, pkceClient(fake));
    const calls = fake.apiCalls.length;
    const grants = await grantsDuring(async () => expect(await whoAmI(connection)).toMatchObject({ sub: 'fake-user' }));
    expect(grants.refresh_token).toBe(1);
    expect(fake.apiCalls.slice(calls).map((c) => c.token)).toEqual([
      credentials.accessToken,
      connection.stored().accessToken,
    ]);
  });

  it('are refreshed once for concurrent steps: the second takes the token the first stored', async () => {
    const connection = memoryConnection({ ...(await connect()), expiresAt: inSeconds(10) }, pkceClient(fake));
    // Two sessions holding the same expiring credentials, as two steps running at once.
    const grants = await grantsDuring(async () => {
      const results = await Promise.all([whoAmI(connection), whoAmI(connection), whoAmI(connection)]);
      expect(results).toEqual([1, 2, 3].map(() => ({ sub: 'fake-user', via: 'authorization_code' })));
    });
    expect(grants.refresh_token).toBe(1);
  });

  it('(the fake revokes the family when one refresh token is spent twice, as rotating providers do)', async () => {
    const credentials = await connect();
    const refresh = async (refreshToken: unknown) => {
      const res = await fetch(fake.tokenUrl, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: String(refreshToken),
          client_id: fake.client.clientId,
          client_secret: fake.client.clientSecret,
        }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    };
    const first = await refresh(credentials.refreshToken);
    expect(first.status).toBe(200);
    expect(await refresh(credentials.refreshToken)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The token the first refresh gave went with its family.
    expect(await refresh(first.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('revoked: the step fails for good with a clear message, the connection is unverified, no token is logged', async () => {
    const credentials = await connect();
    fake.revoke(String(credentials.refreshToken));
    const connection = memoryConnection({ ...credentials, expiresAt: inSeconds(5) }, pkceClient(fake));
    const runner = createStepRunner(catalog, tokenApps);
    const outcome = await runner.runAction({
      appKey: pkceApp.key,
      key: 'whoAmI',
      parameters: {},
      connection: connection.use,
      execution: null,
      store: createMemoryStore(),
    });
    expect(outcome).toEqual({
      kind: 'failure',
      failure: {
        message:
          "Test OAuth: the connection's authorization was revoked or expired; reconnect it. The provider said: The refresh token is invalid or was revoked.",
        retryable: false,
        details: { kind: 'reconnect' },
      },
    });
    expect(connection.verified).toBe(false);
    expect(connection.writes).toEqual([]);
    expect(logger.text()).toContain('could not renew the access token');
    for (const secret of [credentials.accessToken, credentials.refreshToken, fake.client.clientSecret]) {
      expect(logger.text()).not.toContain(String(secret));
    }
  });

  it('revoked while a check runs: the check fails with the same words', async () => {
    const credentials = await connect();
    fake.revoke(String(credentials.refreshToken));
    fake.expire(String(credentials.accessToken));
    const check = await catalog.verifyCredentials(pkceApp.key, credentials, oauth());
    expect(check).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /^Test OAuth: the connection's authorization was revoked or expired; reconnect it\./,
      ),
    });
  });
});
