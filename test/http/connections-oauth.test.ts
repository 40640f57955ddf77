import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../apps/support/fake-github.js';
import { type AuthStep, runAuthSteps } from '../support/automatisch-auth-steps.js';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import {
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';
import { rawQuery } from '../support/raw-sql.js';

let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
});
afterAll(() => github.close());

/**
 * The OAuth2 authorization-code flow over HTTP, as the web console drives it: ask for the
 * consent URL, let the provider send the user back with a code and the state, hand both to the
 * connection, verify.
 */
describe.each(DIALECTS)('OAuth2 connections over HTTP (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;

  beforeEach(async () => {
    instance = await startTestInstance(
      dialect,
      { ...enterpriseEnv(), ALLOW_PRIVATE_NETWORKS: 'true' },
      {},
      { onDisk: true },
    );
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const createClient = async () => {
    const res = await instance.request('POST', '/admin/apps/github/auth-clients', {
      token,
      body: { name: 'Company GitHub', active: true, formattedAuthDefaults: github.client },
    });
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain(github.client.clientSecret);
    return res.body.data.id as string;
  };

  /** The provider's consent step: the URL must carry our client, redirect and a state. */
  const authorize = async (connectionId: string, as = token) => {
    const res = await instance.request('POST', `/connections/${connectionId}/auth-url`, { token: as });
    expect(res.status).toBe(200);
    const url = new URL(res.body.data.url);
    expect(`${url.origin}${url.pathname}`).toBe(github.client.authorizeUrl);
    expect(url.searchParams.get('client_id')).toBe(github.client.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe('http://conveyor.test/app/github/connections/callback');
    const state = url.searchParams.get('state') ?? '';
    expect(state.length).toBeGreaterThanOrEqual(32);
    const code = `code-${Math.random()}`;
    github.allowCode(code);
    return { code, state };
  };

  it('connects with an administrator’s client: consent, code, verify, test, reset, delete', async () => {
    const appAuthClientId = await createClient();
    const listed = await instance.request('GET', '/apps/github/auth-clients', { token });
    expect(listed.body.data).toMatchObject([{ id: appAuthClientId, name: 'Company GitHub', active: true }]);
    expect(JSON.stringify(listed.body)).not.toContain(github.client.clientSecret);

    const created = await instance.request('POST', '/apps/github/connections', { token, body: { appAuthClientId } });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    expect(created.body.data).toMatchObject({ appAuthClientId, verified: false });

    const { code, state } = await authorize(id);
    const patched = await instance.request('PATCH', `/connections/${id}`, {
      token,
      body: { formattedData: { code, state } },
    });
    expect(patched.status).toBe(200);
    const verified = await instance.request('POST', `/connections/${id}/verify`, { token });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toMatchObject({ verified: true, formattedData: { screenName: 'octocat' } });
    expect(JSON.stringify(verified.body)).not.toMatch(/access-\d|refresh-\d/);

    // The tokens the exchange produced are stored sealed, never in the clear.
    const [row] = await rawQuery(instance.database.url, 'select credentials from connections where id = ?', [id]);
    expect(row.credentials).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    expect(row.credentials).not.toMatch(/access-|refresh-/);

    const tested = await instance.request('POST', `/connections/${id}/test`, { token });
    expect(tested.body.data.verified).toBe(true);
    const visible = await instance.request('GET', '/apps/github/connections', { token });
    expect(visible.body.data.map((c: { id: string }) => c.id)).toEqual([id]);

    const reset = await instance.request('POST', `/connections/${id}/reset`, { token });
    expect(reset.status).toBe(200);
    expect(reset.body.data).toMatchObject({ verified: false, formattedData: { screenName: 'octocat' } });
    expect((await instance.request('POST', `/connections/${id}/test`, { token })).body.data.verified).toBe(false);
    expect((await instance.request('DELETE', `/connections/${id}`, { token })).status).toBe(204);
    expect((await instance.request('GET', '/apps/github/connections', { token })).body.data).toEqual([]);
  });

  it('connects with the user’s own client credentials', async () => {
    const created = await instance.request('POST', '/apps/github/connections', {
      token,
      body: { formattedData: github.client },
    });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    const { code, state } = await authorize(id);
    await instance.request('PATCH', `/connections/${id}`, { token, body: { formattedData: { code, state } } });
    const verified = await instance.request('POST', `/connections/${id}/verify`, { token });
    expect(verified.status).toBe(200);
    expect(verified.body.data.formattedData.screenName).toBe('octocat');
  });

  it('describes its steps as Automatisch does, and they connect and reconnect when run as its client runs them', async () => {
    const res = await instance.request('GET', '/apps/github/auth', { token });
    expect(res.status).toBe(200);
    const auth = res.body.data;
    const outline = (steps: AuthStep[]) => steps.map(({ type, name, arguments: args }) => ({ type, name, args }));
    const consent = [
      { type: 'mutation', name: 'generateAuthUrl', args: [] },
      { type: 'openWithPopup', name: 'openAuthPopup', args: [{ name: 'url', value: '{generateAuthUrl.url}' }] },
      { type: 'mutation', name: 'updateConnection', args: [{ name: 'formattedData', value: '{openAuthPopup.all}' }] },
      { type: 'mutation', name: 'verifyConnection', args: [] },
    ];
    const reset = { type: 'mutation', name: 'resetConnection', args: [] };
    const key = { name: 'key', value: '{key}' };
    const fields = { name: 'formattedData', value: '{fields.all}' };
    const client = { name: 'oauthClientId', value: '{oauthClientId}' };
    expect(outline(auth.authenticationSteps)).toEqual([
      { type: 'mutation', name: 'createConnection', args: [key, fields] },
      ...consent,
    ]);
    expect(outline(auth.reconnectionSteps)).toEqual([
      reset,
      { type: 'mutation', name: 'updateConnection', args: [fields] },
      ...consent,
    ]);
    expect(outline(auth.sharedAuthenticationSteps)).toEqual([
      { type: 'mutation', name: 'createConnection', args: [key, client] },
      ...consent,
    ]);
    expect(outline(auth.sharedReconnectionSteps)).toEqual([
      reset,
      { type: 'mutation', name: 'updateConnection', args: [client] },
      ...consent,
    ]);

    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await instance.request(method, path, { token, body });
      if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.data;
    };
    // The provider's page: it sends the user back with a code and the state it was given.
    const popup = async (url: string) => {
      const code = `code-${Math.random()}`;
      github.allowCode(code);
      return { code, state: new URL(url).searchParams.get('state') };
    };
    const connected = await runAuthSteps(
      auth.authenticationSteps,
      { key: 'github', fields: github.client },
      call,
      popup,
    );
    expect(connected.verifyConnection).toMatchObject({ verified: true, formattedData: { screenName: 'octocat' } });
    const { connectionId } = connected;
    const reconnected = await runAuthSteps(
      auth.reconnectionSteps,
      { key: 'github', fields: github.client, connectionId },
      call,
      popup,
    );
    expect(reconnected.resetConnection).toMatchObject({ id: connectionId, verified: false });
    expect(reconnected.verifyConnection).toMatchObject({ id: connectionId, verified: true });
  });

  it('refuses a code that comes back with another state, without exchanging it', async () => {
    const appAuthClientId = await createClient();
    const { id } = (await instance.request('POST', '/apps/github/connections', { token, body: { appAuthClientId } }))
      .body.data;
    const { code } = await authorize(id);
    await instance.request('PATCH', `/connections/${id}`, {
      token,
      body: { formattedData: { code, state: 'a-state-someone-else-made' } },
    });
    const before = github.tokenRequests().length;
    const refused = await instance.request('POST', `/connections/${id}/verify`, { token });
    expect(refused.status).toBe(422);
    expect(refused.body.errors['formattedData.state']).toBeDefined();
    expect(github.tokenRequests().length).toBe(before);
    expect((await instance.request('GET', '/apps/github/connections', { token })).body.data).toEqual([]);
  });

  it('reports the provider’s reason for a code it does not know', async () => {
    const appAuthClientId = await createClient();
    const { id } = (await instance.request('POST', '/apps/github/connections', { token, body: { appAuthClientId } }))
      .body.data;
    const { state } = await authorize(id);
    await instance.request('PATCH', `/connections/${id}`, {
      token,
      body: { formattedData: { code: 'never-issued', state } },
    });
    const refused = await instance.request('POST', `/connections/${id}/verify`, { token });
    expect(refused.status).toBe(422);
    expect(refused.body.meta.type).toBe('ConnectionVerificationError');
    expect(refused.body.errors.general[0]).toContain('incorrect or expired');
  });

  it('makes users choose the administrator’s clients when the app is configured so', async () => {
    await createClient();
    const config = await instance.request('POST', '/admin/apps/github/config', {
      token,
      body: { useOnlyPredefinedAuthClients: true },
    });
    expect(config.status).toBe(201);
    const own = await instance.request('POST', '/apps/github/connections', {
      token,
      body: { formattedData: github.client },
    });
    expect(own.status).toBe(403);
    expect(own.body.meta.type).toBe('ForbiddenError');
  });

  it('keeps the consent URL of a connection to its owner', async () => {
    const appAuthClientId = await createClient();
    const { id } = (await instance.request('POST', '/apps/github/connections', { token, body: { appAuthClientId } }))
      .body.data;
    await enableRegistration(instance, token);
    const bob = await registerAndSignIn(instance, BOB);
    expect((await instance.request('POST', `/connections/${id}/auth-url`, { token: bob.token })).status).toBe(404);
  });

  it('has no consent URL for apps without OAuth', async () => {
    const created = await instance.request('POST', '/apps/smtp/connections', {
      token,
      body: { formattedData: { host: '127.0.0.1', fromEmail: 'robot@conveyor.test' } },
    });
    expect(created.status).toBe(201);
    const res = await instance.request('POST', `/connections/${created.body.data.id}/auth-url`, { token });
    expect(res.status).toBe(422);
  });
});
