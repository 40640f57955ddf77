import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, finishedRun, sendWebhook } from '../support/engine-flows.js';
import { type FakeOAuth, followConsent, startFakeOAuth } from '../support/fake-oauth.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { rawQuery } from '../support/raw-sql.js';
import { pkceApp, pkceClient, tokenApps } from '../support/token-apps.js';

const APP = pkceApp.key;

/**
 * An OAuth2 app with PKCE over HTTP alone: the console's consent round trip against a fake
 * authorization server that insists on PKCE, then runs whose token the server refuses or whose
 * refresh token was revoked.
 */
describe.each(DIALECTS)('OAuth2 with PKCE over HTTP (%s)', (dialect) => {
  let fake: FakeOAuth;
  let instance: TestInstance;
  let token: string;

  beforeAll(async () => {
    fake = await startFakeOAuth({ requirePkce: true });
  });
  afterAll(() => fake.close());
  beforeEach(async () => {
    instance = await startTestInstance(
      dialect,
      { ALLOW_PRIVATE_NETWORKS: 'true' },
      { apps: [...builtInApps, ...tokenApps] },
      { onDisk: true },
    );
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const verifierColumn = async (id: string) =>
    (await rawQuery(instance.database.url, 'select oauth_code_verifier as v from connections where id = ?', [id]))[0]
      ?.v as string | null;

  /** Create, ask for the consent URL, consent at the fake, hand back code and state, verify. */
  const connect = async () => {
    const created = await instance.request('POST', `/apps/${APP}/connections`, {
      token,
      body: { formattedData: pkceClient(fake) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id } = created.body.data;
    const consent = await instance.request('POST', `/connections/${id}/auth-url`, { token });
    expect(consent.status, JSON.stringify(consent.body)).toBe(200);
    const back = await followConsent(consent.body.data.url);
    expect(back).toMatchObject({ redirectedTo: `http://conveyor.test/app/${APP}/connections/callback`, error: null });
    const patched = await instance.request('PATCH', `/connections/${id}`, {
      token,
      body: { formattedData: { code: back.code, state: back.state } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    return { id: id as string, consentUrl: new URL(consent.body.data.url) };
  };

  const verify = (id: string) => instance.request('POST', `/connections/${id}/verify`, { token });

  it('connects: the challenge goes to the provider, the verifier stays sealed server-side until the exchange', async () => {
    const { id, consentUrl } = await connect();
    const challenge = consentUrl.searchParams.get('code_challenge');
    expect(consentUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(fake.authorizations.at(-1)).toMatchObject({ code_challenge: challenge, code_challenge_method: 'S256' });
    // Pending: kept sealed in the row, nowhere in what the browser saw.
    const sealed = await verifierColumn(id);
    expect(sealed).toMatch(/^v1\./);

    const verified = await verify(id);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.data).toMatchObject({ verified: true, formattedData: { screenName: 'fake-user' } });
    const exchange = fake.tokenRequests.findLast((r) => r.form.grant_type === 'authorization_code');
    const verifier = exchange?.form.code_verifier ?? '';
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(challenge);
    expect(consentUrl.toString()).not.toContain(verifier);
    expect(sealed).not.toContain(verifier);
    // Spent with the code.
    expect(await verifierColumn(id)).toBeNull();
  });

  it('a failed exchange drops the code and its verifier: the consent must start again', async () => {
    const { id } = await connect();
    // Another consent's code, with this connection's state: the server's PKCE check refuses it.
    const other = await followConsent(
      `${fake.authorizeUrl}?${new URLSearchParams({
        client_id: fake.client.clientId,
        redirect_uri: `http://conveyor.test/app/${APP}/connections/callback`,
        response_type: 'code',
        code_challenge: createHash('sha256').update('someone-elses-verifier').digest('base64url'),
        code_challenge_method: 'S256',
      })}`,
    );
    const state = (await instance.request('POST', `/connections/${id}/auth-url`, { token })).body.data.url;
    await instance.request('PATCH', `/connections/${id}`, {
      token,
      body: { formattedData: { code: other.code, state: new URL(state).searchParams.get('state') } },
    });
    const refused = await verify(id);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.general).toEqual(['Authorization failed: PKCE verification failed.']);
    expect(await verifierColumn(id)).toBeNull();
    // The code went with it: verifying again finds nothing to exchange, and asks the server nothing.
    const before = fake.tokenRequests.length;
    const again = await verify(id);
    expect(again.body.errors.general).toEqual(['The connection has not been authorized yet.']);
    expect(fake.tokenRequests.length).toBe(before);
  });

  /** A published flow: a webhook, then the app's `whoAmI` on the connection. */
  const publishedFlow = async (connectionId: string) => {
    const { flowId, call } = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: APP, key: 'whoAmI', connectionId, parameters: {} }),
    ]);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    return flowId;
  };

  it('a run whose token the API refuses refreshes it once and succeeds', async () => {
    const { id } = await connect();
    expect((await verify(id)).status).toBe(200);
    const flowId = await publishedFlow(id);
    fake.expireAll();
    const before = fake.grants.refresh_token;
    await sendWebhook(instance, flowId, { hello: 'world' });
    const run = await finishedRun(instance, token, flowId);
    expect(run.status).toBe('success');
    expect(run.steps[1].dataOut).toEqual({ sub: 'fake-user', via: 'authorization_code' });
    expect(fake.grants.refresh_token - before).toBe(1);
    expect(JSON.stringify(run)).not.toMatch(/access-|refresh-/);
  });

  it('a run whose refresh token was revoked fails once, clearly; the connection shows it needs reconnecting, and reconnects', async () => {
    const { id } = await connect();
    expect((await verify(id)).status).toBe(200);
    const flowId = await publishedFlow(id);
    // The user removed the app's access at the provider: every token of the grant is gone.
    fake.revokeAll();
    fake.expireAll();
    await sendWebhook(instance, flowId, { hello: 'world' });
    const run = await finishedRun(instance, token, flowId);
    expect(run.status).toBe('failure');
    expect(run.steps[1]).toMatchObject({
      status: 'failure',
      errorDetails: {
        message:
          "Test OAuth: the connection's authorization was revoked or expired; reconnect it. The provider said: The refresh token is invalid or was revoked.",
      },
    });
    const listed = await instance.request('GET', `/apps/${APP}/connections`, { token });
    expect(listed.body.data).toEqual([expect.objectContaining({ id, verified: false })]);
    expect(JSON.stringify(run)).not.toMatch(/access-|refresh-/);

    // Reconnecting as the console's reconnection steps do: reset, the client again, a new consent.
    expect((await instance.request('POST', `/connections/${id}/reset`, { token })).status).toBe(200);
    await instance.request('PATCH', `/connections/${id}`, { token, body: { formattedData: pkceClient(fake) } });
    const consent = await instance.request('POST', `/connections/${id}/auth-url`, { token });
    const back = await followConsent(consent.body.data.url);
    await instance.request('PATCH', `/connections/${id}`, {
      token,
      body: { formattedData: { code: back.code, state: back.state } },
    });
    expect((await verify(id)).body.data).toMatchObject({ id, verified: true });
    const tested = await instance.request('POST', `/connections/${id}/test`, { token });
    expect(tested.body.data).toMatchObject({ verified: true, formattedData: { screenName: 'fake-user' } });
  });
});
