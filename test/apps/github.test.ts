import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import type { Credentials } from '../../core/domain/app.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeGitHub, startFakeGitHub } from './support/fake-github.js';

const REDIRECT_URI = 'https://conveyor.test/app/github/connections/callback';

let github: FakeGitHub;
let catalog: InProcessAppCatalog;
let logger: CapturingLogger;

beforeAll(async () => {
  github = await startFakeGitHub();
});

beforeEach(async () => {
  await catalog?.close();
  logger = new CapturingLogger();
  catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: true, logger });
});

afterAll(async () => {
  await catalog.close();
  await github.close();
});

const oauth = () => ({ client: github.client, redirectUri: REDIRECT_URI });

/** A connection verified through the fake server, as the core would store it. */
const connect = async (code = `code-${Math.random()}`) => {
  github.allowCode(code);
  const check = await catalog.verifyCredentials('github', { code, state: 'the-state' }, oauth());
  if (!check.ok) throw new Error(check.reason);
  return check.credentials;
};

describe('github: client settings', () => {
  it('need a client id and secret; endpoints default to GitHub', () => {
    expect(catalog.parseClientSettings('github', {})).toEqual({
      ok: false,
      fields: { clientId: ['is required.'], clientSecret: ['is required.'] },
    });
    expect(catalog.parseClientSettings('github', { clientId: 'id', clientSecret: 'secret' })).toEqual({
      ok: true,
      value: { clientId: 'id', clientSecret: 'secret', apiBaseUrl: 'https://api.github.com' },
    });
  });

  it('refuse endpoint overrides that are not http(s) URLs', () => {
    const parsed = catalog.parseClientSettings('github', { clientId: 'a', clientSecret: 'b', tokenUrl: 'file:///x' });
    expect(parsed).toEqual({ ok: false, fields: { tokenUrl: ['must be an http or https URL.'] } });
  });

  it('ignore tokens and other stored values next to them', () => {
    const parsed = catalog.parseClientSettings('github', { ...github.client, accessToken: 'x', code: 'y' });
    expect(parsed).toEqual({ ok: true, value: github.client });
  });
});

describe('github: authorization', () => {
  it('sends the user to the authorize URL with client_id, redirect_uri, state and scope', () => {
    const url = new URL(
      catalog.authorizationUrl('github', { client: github.client, redirectUri: REDIRECT_URI, state: 's-123' }) ?? '',
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: github.client.clientId,
      redirect_uri: REDIRECT_URI,
      state: 's-123',
      response_type: 'code',
      scope: 'read:user repo',
    });
  });

  it('uses github.com when the client does not override it', () => {
    const url = catalog.authorizationUrl('github', {
      client: { clientId: 'id', clientSecret: 'secret' },
      redirectUri: REDIRECT_URI,
      state: 's',
    });
    expect(url).toMatch(/^https:\/\/github\.com\/login\/oauth\/authorize\?/);
  });

  it('has no authorize URL for apps without OAuth', () => {
    expect(
      catalog.authorizationUrl('postgresql', { client: github.client, redirectUri: REDIRECT_URI, state: 's' }),
    ).toBeNull();
  });

  it('exchanges the code (client secret in the form body) and names the account from /user', async () => {
    github.allowCode('code-a');
    const before = github.tokenRequests().length;
    const check = await catalog.verifyCredentials(
      'github',
      { ...github.client, code: 'code-a', state: 'the-state' },
      oauth(),
    );
    expect(check).toMatchObject({ ok: true, screenName: 'octocat' });
    const exchange = github.tokenRequests().slice(before)[0];
    expect(Object.fromEntries(new URLSearchParams(exchange?.body))).toEqual({
      grant_type: 'authorization_code',
      code: 'code-a',
      redirect_uri: REDIRECT_URI,
      client_id: github.client.clientId,
      client_secret: github.client.clientSecret,
    });
    expect(exchange?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    if (!check.ok) return;
    expect(check.credentials).not.toHaveProperty('code');
    expect(check.credentials).not.toHaveProperty('state');
    expect(check.credentials).toMatchObject({
      ...github.client,
      accessToken: expect.stringMatching(/^access-/),
      refreshToken: expect.stringMatching(/^refresh-/),
      tokenType: 'bearer',
      scope: 'read:user,repo',
      expiresAt: expect.any(String),
    });
  });

  it('reports the server reason for an invalid code, without secrets', async () => {
    const check = await catalog.verifyCredentials('github', { code: 'wrong-code', state: 's' }, oauth());
    expect(check).toEqual({ ok: false, reason: 'Authorization failed: The code passed is incorrect or expired.' });
    expect(logger.text()).not.toContain(github.client.clientSecret);
    expect(logger.text()).not.toContain('wrong-code');
  });

  it('reports a wrong client secret', async () => {
    github.allowCode('code-b');
    const check = await catalog.verifyCredentials(
      'github',
      { code: 'code-b' },
      { client: { ...github.client, clientSecret: 'nope-nope' }, redirectUri: REDIRECT_URI },
    );
    expect(check).toEqual({ ok: false, reason: 'Authorization failed: The client credentials are wrong.' });
  });

  it('refuses a connection that was never authorized', async () => {
    expect(await catalog.verifyCredentials('github', { ...github.client }, oauth())).toEqual({
      ok: false,
      reason: 'The connection has not been authorized yet.',
    });
  });

  it('reports the remote reason when the stored token no longer works and cannot be refreshed', async () => {
    const check = await catalog.verifyCredentials('github', { accessToken: 'revoked-token' }, oauth());
    expect(check).toEqual({ ok: false, reason: `GET ${github.url}/user answered 401: Bad credentials` });
  });
});

describe('github: token refresh', () => {
  it('refreshes an expired access token once, retries, and returns the new tokens', async () => {
    const credentials = await connect();
    github.expire(String(credentials.accessToken));
    const before = github.tokenRequests().length;
    const check = await catalog.verifyCredentials('github', credentials, oauth());
    expect(check).toMatchObject({ ok: true, screenName: 'octocat' });
    const refreshes = github.tokenRequests().slice(before);
    expect(refreshes).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(refreshes[0]?.body))).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: credentials.refreshToken,
      client_secret: github.client.clientSecret,
    });
    if (!check.ok) return;
    expect(check.credentials.accessToken).not.toBe(credentials.accessToken);
    expect(check.credentials.refreshToken).not.toBe(credentials.refreshToken);
  });

  it('persists refreshed tokens of a run through the connection', async () => {
    const credentials = await connect();
    github.expire(String(credentials.accessToken));
    const saved: Credentials[] = [];
    const issue = await catalog.runAction({
      appKey: 'github',
      key: 'createIssue',
      parameters: { repo: 'octocat/hello-world', title: 'Found a bug', body: 'Steps...' },
      connection: { credentials, oauth: { client: github.client }, save: async (c) => void saved.push(c) },
      execution: null,
    });
    expect(issue).toMatchObject({ number: 7, title: 'Found a bug', body: 'Steps...' });
    expect(saved).toHaveLength(1);
    expect(saved[0]?.accessToken).not.toBe(credentials.accessToken);
    expect(saved[0]).toEqual({
      ...credentials,
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(saved[0]?.refreshToken).not.toBe(credentials.refreshToken);
  });

  it('tries only once when the refresh token is refused too', async () => {
    const credentials = await connect();
    github.expire(String(credentials.accessToken));
    const stale = { ...credentials, refreshToken: 'refresh-unknown' };
    const before = github.tokenRequests().length;
    const still = await catalog.isStillVerified('github', { credentials: stale, oauth: { client: github.client } });
    expect(still).toBe(false);
    expect(github.tokenRequests().length - before).toBe(1);
    expect(logger.text()).toContain('The refresh token is invalid.');
    expect(logger.text()).not.toContain('refresh-unknown');
  });
});

describe('github: actions and dynamic data', () => {
  it('creates an issue with the stored token', async () => {
    const credentials = await connect();
    const issue = await catalog.runAction({
      appKey: 'github',
      key: 'createIssue',
      parameters: { repo: 'octocat/hello-world', title: 'Hello' },
      connection: { credentials, oauth: { client: github.client } },
      execution: { id: 'e1', flowId: 'flow-1', stepId: 's1', testRun: true, idempotencyKey: 'e1:s1' },
    });
    expect(issue).toMatchObject({ number: 7, title: 'Hello', body: null });
    const created = github.requests.at(-1);
    expect(created?.url).toBe('/repos/octocat/hello-world/issues');
    expect(created?.headers.authorization).toBe(`Bearer ${credentials.accessToken}`);
    expect(created?.headers['x-github-api-version']).toBe('2022-11-28');
  });

  it('refuses a repository that is not owner/name', async () => {
    const credentials = await connect();
    await expect(
      catalog.runAction({
        appKey: 'github',
        key: 'createIssue',
        parameters: { repo: 'not a repo', title: 'x' },
        connection: { credentials, oauth: { client: github.client } },
        execution: null,
      }),
    ).rejects.toMatchObject({ name: 'InvalidParametersError', fields: { repo: ['must be owner/name.'] } });
  });

  it('lists repositories for the repository dropdown', async () => {
    const credentials = await connect();
    const options = await catalog.dynamicData({
      appKey: 'github',
      key: 'listRepos',
      parameters: {},
      connection: { credentials, oauth: { client: github.client } },
    });
    expect(options).toEqual([
      { name: 'octocat/hello-world', value: 'octocat/hello-world' },
      { name: 'octocat/spoon-knife', value: 'octocat/spoon-knife' },
    ]);
  });

  it('cannot reach a local server when the instance refuses private networks', async () => {
    const guarded = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger });
    try {
      github.allowCode('code-c');
      const check = await guarded.verifyCredentials('github', { code: 'code-c' }, oauth());
      expect(check).toMatchObject({ ok: false, reason: expect.stringMatching(/^Refused to connect to 127\.0\.0\.1/) });
    } finally {
      await guarded.close();
    }
  });
});
