import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/app-catalog.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import type { Credentials } from '../../core/domain/app.js';
import { connectionUse } from '../../core/engine/connection-use.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ActionOutcome, StepRunner } from '../../ports/step-runner.js';
import { insertUser, openFixture, openSecondPool, type PersistenceFixture } from '../contract/persistence-fixture.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { DIALECTS } from '../support/databases.js';
import { type FakeOAuth, followConsent, startFakeOAuth } from '../support/fake-oauth.js';
import { pkceApp, pkceClient, tokenApps } from '../support/token-apps.js';

const REDIRECT_URI = 'https://conveyor.test/app/test-oauth-pkce/connections/callback';
const VERIFIER = 'verifier-0123456789-0123456789-0123456789-abc';

/**
 * Steps using one stored connection at once, through the engine's connection use and the real
 * repositories: an expiring token is refreshed once, whoever gets there first, and the others take
 * the token it stored. The fake rotates refresh tokens and revokes the family of one spent twice,
 * so a second refresh with the same token would fail a step.
 */
describe.each(DIALECTS)('one refresh for concurrent users of a connection (%s)', (dialect) => {
  let fake: FakeOAuth;
  let fx: PersistenceFixture;
  let catalog: InProcessAppCatalog;
  let runner: StepRunner;

  beforeAll(async () => {
    // Token answers take a while, so that the steps overlap while one refreshes.
    fake = await startFakeOAuth({ tokenDelayMs: 150 });
  });
  afterAll(() => fake.close());
  beforeEach(async () => {
    fx = await openFixture(dialect);
    catalog = createAppCatalog({ apps: tokenApps, allowPrivateNetworks: true, logger: new CapturingLogger() });
    runner = createStepRunner(catalog, tokenApps);
  });
  afterEach(async () => {
    await catalog.close();
    await fx.close();
  });

  /** A connection authorized at the fake, stored with a token that expires in 30 seconds. */
  const storedConnection = async () => {
    const client = pkceClient(fake);
    const url = catalog.authorizationUrl(pkceApp.key, {
      client,
      redirectUri: REDIRECT_URI,
      state: 's',
      codeVerifier: VERIFIER,
    });
    const { code } = await followConsent(url ?? '');
    const check = await catalog.verifyCredentials(
      pkceApp.key,
      { code, state: 's' },
      { client, redirectUri: REDIRECT_URI, codeVerifier: VERIFIER },
    );
    if (!check.ok) throw new Error(check.reason);
    const credentials: Credentials = {
      ...client,
      ...check.credentials,
      expiresAt: new Date(Date.now() + 30_000).toISOString(),
    };
    const id = randomUUID();
    await fx.repos.connections.insert({
      id,
      userId: await insertUser(fx.repos),
      appKey: pkceApp.key,
      oauthClientId: null,
      credentials,
      now: new Date(),
    });
    await fx.repos.connections.update(id, { verified: true }, new Date());
    return { id, credentials };
  };

  /** A step of `whoAmI` as the engine runs it: the connection read from `repos`, then the runner. */
  const step = async (repos: Repositories, id: string): Promise<ActionOutcome> => {
    const stored = await repos.connections.findById(id);
    if (!stored) throw new Error('connection gone');
    const use = await connectionUse({ repos, clock: { now: () => new Date() }, apps: catalog }, stored);
    if (!use.ok) throw new Error('connection unusable');
    return runner.runAction({
      appKey: pkceApp.key,
      key: 'whoAmI',
      parameters: {},
      connection: use.value,
      execution: null,
      store: createMemoryStore(),
    });
  };

  const succeeded = { kind: 'success', output: { sub: 'fake-user', via: 'authorization_code' } };

  it('three steps in one process with an expiring token: one refresh grant, all succeed', async () => {
    const { id, credentials } = await storedConnection();
    const before = fake.grants.refresh_token;
    const outcomes = await Promise.all([step(fx.repos, id), step(fx.repos, id), step(fx.repos, id)]);
    expect(outcomes).toEqual([succeeded, succeeded, succeeded]);
    expect(fake.grants.refresh_token - before).toBe(1);
    const stored = await fx.repos.connections.findById(id);
    expect(stored?.credentials.refreshToken).not.toBe(credentials.refreshToken);
    expect(stored?.verified).toBe(true);
  });

  it('steps whose token the API refuses (401) at once: one refresh grant, all succeed', async () => {
    const { id, credentials } = await storedConnection();
    await fx.repos.connections.update(
      id,
      { credentials: { ...credentials, expiresAt: new Date(Date.now() + 3_600_000).toISOString() } },
      new Date(),
    );
    fake.expire(String(credentials.accessToken));
    const before = fake.grants.refresh_token;
    const outcomes = await Promise.all([step(fx.repos, id), step(fx.repos, id)]);
    expect(outcomes).toEqual([succeeded, succeeded]);
    expect(fake.grants.refresh_token - before).toBe(1);
  });

  if (dialect === 'postgres') {
    describe('in two processes', () => {
      let other: ReturnType<typeof openSecondPool>;
      beforeEach(() => {
        other = openSecondPool(fx);
      });
      afterEach(() => other.close());

      it('steps of two workers with an expiring token: one refresh grant, both succeed', async () => {
        const { id } = await storedConnection();
        const before = fake.grants.refresh_token;
        const outcomes = await Promise.all([step(fx.repos, id), step(other.repos, id), step(other.repos, id)]);
        expect(outcomes).toEqual([succeeded, succeeded, succeeded]);
        expect(fake.grants.refresh_token - before).toBe(1);
      });
    });
  }
});
