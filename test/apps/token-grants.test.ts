import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/app-catalog.js';
import type { Credentials } from '../../core/domain/app.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeOAuth, startFakeOAuth } from '../support/fake-oauth.js';
import { memoryConnection } from '../support/memory-connection.js';
import { clientCredentialsApp, clientCredentialsFields, serviceAccountApp, tokenApps } from '../support/token-apps.js';

let fake: FakeOAuth;
let catalog: InProcessAppCatalog;
let logger: CapturingLogger;

beforeAll(async () => {
  fake = await startFakeOAuth();
});
afterAll(() => fake.close());
beforeEach(() => {
  logger = new CapturingLogger();
  catalog = createAppCatalog({ apps: tokenApps, allowPrivateNetworks: true, logger });
});
afterEach(() => catalog.close());

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

const run = (appKey: string, connection: ReturnType<typeof memoryConnection>) =>
  catalog.runAction({ appKey, key: 'whoAmI', parameters: {}, connection: connection.use, execution: null });

/** Verifies the fields as the console does, and answers the credentials it would store. */
const verified = async (appKey: string, fields: Credentials) => {
  const check = await catalog.verifyCredentials(appKey, fields, null);
  if (!check.ok) throw new Error(check.reason);
  return check;
};

const lastGrant = () => fake.tokenRequests.at(-1);

describe('client credentials', () => {
  const app = clientCredentialsApp.key;

  it('are checked by getting a token (HTTP Basic, the app’s scopes); the token is cached with its expiry', async () => {
    const before = fake.grants.client_credentials;
    const check = await verified(app, clientCredentialsFields(fake));
    expect(check.screenName).toBe(fake.client.clientId);
    expect(fake.grants.client_credentials - before).toBe(1);
    expect(lastGrant()).toEqual({
      form: { grant_type: 'client_credentials', scope: 'reports', client_id: fake.client.clientId },
      clientId: fake.client.clientId,
    });
    expect(check.credentials).toEqual({
      ...clientCredentialsFields(fake),
      accessToken: expect.stringMatching(/^access-/),
      tokenType: 'Bearer',
      expiresAt: expect.any(String),
      tokenFor: expect.any(String),
    });
  });

  it('use the cached token in runs until it nears its expiry, then get a new one', async () => {
    const connection = memoryConnection((await verified(app, clientCredentialsFields(fake))).credentials);
    const before = fake.grants.client_credentials;
    expect(await run(app, connection)).toEqual({ sub: fake.client.clientId, via: 'client_credentials' });
    expect(await run(app, connection)).toMatchObject({ via: 'client_credentials' });
    expect(fake.grants.client_credentials - before).toBe(0);

    const expiring = memoryConnection({ ...connection.stored(), expiresAt: inSeconds(20) });
    const calls = fake.apiCalls.length;
    await run(app, expiring);
    expect(fake.grants.client_credentials - before).toBe(1);
    expect(fake.apiCalls.slice(calls)).toEqual([{ path: '/me', token: expiring.stored().accessToken }]);
    expect(expiring.stored().accessToken).not.toBe(connection.stored().accessToken);
  });

  it('get a new token once when the API answers 401', async () => {
    const credentials = (await verified(app, clientCredentialsFields(fake))).credentials;
    fake.expire(String(credentials.accessToken));
    const connection = memoryConnection(credentials);
    const before = fake.grants.client_credentials;
    expect(await run(app, connection)).toMatchObject({ via: 'client_credentials' });
    expect(fake.grants.client_credentials - before).toBe(1);
    expect(connection.writes).toHaveLength(1);
  });

  it('get a new token once their fields change: a cached token is the old client’s', async () => {
    const credentials = (await verified(app, clientCredentialsFields(fake))).credentials;
    const before = fake.grants.client_credentials;
    const changed = memoryConnection({ ...credentials, clientSecret: 'a-secret-typed-wrong' });
    await expect(run(app, changed)).rejects.toThrow('Authorization failed: Client authentication failed.');
    expect(fake.grants.client_credentials - before).toBe(1);
  });

  it('get their token at the instance’s APP_AUTH_URL_<KEY> when it names another server', async () => {
    const overridden = createAppCatalog({
      apps: tokenApps,
      allowPrivateNetworks: true,
      logger,
      appAddresses: { APP_AUTH_URL_TEST_CLIENT_CREDENTIALS: fake.url },
    });
    try {
      const before = fake.grants.client_credentials;
      const fields = { ...clientCredentialsFields(fake), tokenUrl: 'https://auth.vendor.invalid/token' };
      expect(await overridden.verifyCredentials(app, fields, null)).toMatchObject({ ok: true });
      expect(fake.grants.client_credentials - before).toBe(1);
    } finally {
      await overridden.close();
    }
  });

  it('report the server’s reason for a wrong secret, without the secret', async () => {
    const check = await catalog.verifyCredentials(
      app,
      { ...clientCredentialsFields(fake), clientSecret: 'wrong-secret-value' },
      null,
    );
    expect(check).toEqual({ ok: false, reason: 'Authorization failed: Client authentication failed.' });
    expect(logger.text()).not.toContain('wrong-secret-value');
  });
});

describe('Google service account', () => {
  const app = serviceAccountApp.key;
  const email = 'robot@fake-project.iam.gserviceaccount.com';

  it('is checked by exchanging a signed JWT; the screen name is the key’s client_email', async () => {
    const serviceAccountKey = fake.serviceAccount(email);
    const before = fake.grants.jwt_bearer;
    const check = await verified(app, { serviceAccountKey });
    expect(check.screenName).toBe(email);
    expect(fake.grants.jwt_bearer - before).toBe(1);
    const assertion = String(lastGrant()?.form.assertion);
    const [header, claims] = assertion
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: JSON.parse(serviceAccountKey).private_key_id });
    expect(claims).toEqual({
      iss: email,
      scope: 'https://www.googleapis.com/auth/drive.readonly',
      aud: fake.tokenUrl,
      iat: expect.any(Number),
      exp: claims.iat + 3600,
    });
    expect(lastGrant()?.form.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(check.credentials).toMatchObject({ serviceAccountKey, accessToken: expect.stringMatching(/^access-/) });
  });

  it('acts for the subject under domain-wide delegation, and reuses its token until it nears expiry', async () => {
    const fields = {
      serviceAccountKey: fake.serviceAccount('delegate@fake-project.iam.gserviceaccount.com'),
      subject: 'ada@example.com',
    };
    const connection = memoryConnection((await verified(app, fields)).credentials);
    const before = fake.grants.jwt_bearer;
    expect(await run(app, connection)).toEqual({ sub: 'ada@example.com', via: 'jwt_bearer' });
    expect(fake.grants.jwt_bearer - before).toBe(0);
    const expiring = memoryConnection({ ...connection.stored(), expiresAt: inSeconds(-5) });
    await run(app, expiring);
    expect(fake.grants.jwt_bearer - before).toBe(1);
  });

  it('reports the server’s refusal of a key it does not know (a deleted key)', async () => {
    const key = JSON.parse(fake.serviceAccount('other@fake-project.iam.gserviceaccount.com'));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = JSON.stringify({ ...key, private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) });
    const check = await catalog.verifyCredentials(app, { serviceAccountKey: forged }, null);
    expect(check).toEqual({
      ok: false,
      reason:
        "Test service account: the connection's authorization was revoked or expired; reconnect it. The provider said: Invalid JWT Signature.",
    });
    expect(logger.text()).not.toContain('PRIVATE KEY');
  });

  it('refuses a file that is not a service account key, without repeating it', () => {
    expect(catalog.parseAuthFields(app, { serviceAccountKey: '{"type":"authorized_user"}' })).toEqual({
      ok: false,
      fields: { serviceAccountKey: ['must be the JSON key of a service account.'] },
    });
    const broken = JSON.stringify({ ...JSON.parse(fake.serviceAccount(email)), private_key: 'not a key' });
    expect(catalog.parseAuthFields(app, { serviceAccountKey: broken })).toEqual({
      ok: false,
      fields: { serviceAccountKey: ['has a private_key that is not a PEM private key.'] },
    });
  });
});
