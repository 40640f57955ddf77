import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerAppHook, runAppTrigger, unregisterAppHook } from '../../adapters/apps/app-harness.js';
import { github as githubApp } from '../../adapters/apps/github/index.js';
import { builtInApps, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import type { Credentials } from '../../core/domain/app.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { memoryConnection } from '../support/memory-connection.js';
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
  it('need a client id and secret; endpoints default to GitHub (or APP_BASE_URL_GITHUB)', () => {
    expect(catalog.parseClientSettings('github', {})).toEqual({
      ok: false,
      fields: { clientId: ['is required.'], clientSecret: ['is required.'] },
    });
    expect(catalog.parseClientSettings('github', { clientId: 'id', clientSecret: 'secret' })).toEqual({
      ok: true,
      value: { clientId: 'id', clientSecret: 'secret' },
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
    const connection = memoryConnection(credentials, github.client);
    const issue = await catalog.runAction({
      appKey: 'github',
      key: 'createIssue',
      parameters: { repo: 'octocat/hello-world', title: 'Found a bug', body: 'Steps...' },
      connection: connection.use,
      execution: null,
    });
    const saved = connection.writes;
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

describe('github: polling triggers', () => {
  let credentials: Credentials;
  beforeEach(async () => {
    credentials = await connect();
  });
  const poll = (key: string, parameters: Record<string, unknown>) =>
    catalog.runTrigger({
      appKey: 'github',
      key,
      parameters,
      connection: { credentials, oauth: { client: github.client } },
      execution: null,
      store: createMemoryStore(),
      webhook: null,
    });
  const since = () => github.requests.length;
  const sent = (from: number) => github.requests.slice(from).map((r) => new URL(r.url, 'http://x'));

  afterEach(() => {
    github.repos.pageLimit = 100;
  });

  it("newIssues: a repository's issues newest first, without its pull requests, each with its id", async () => {
    const from = since();
    const items = await poll('newIssues', { repo: 'octocat/hello-world' });
    expect(items.map((i) => i.id)).toEqual(['1004', '1003', '1001']);
    expect(items[0]?.data).toMatchObject({ number: 4, title: 'Crash on start' });
    const [list] = sent(from);
    expect(list?.pathname).toBe('/repos/octocat/hello-world/issues');
    expect(Object.fromEntries(list?.searchParams ?? [])).toEqual({
      state: 'all',
      sort: 'created',
      direction: 'desc',
      per_page: '100',
    });
  });

  it('newIssues: a label, and "assigned to / created by / mentioning me" in a repository, by login', async () => {
    expect((await poll('newIssues', { repo: 'octocat/hello-world', label: 'bug' })).map((i) => i.id)).toEqual([
      '1004',
      '1001',
    ]);
    const from = since();
    expect((await poll('newIssues', { repo: 'octocat/hello-world', issueType: 'assigned' })).map((i) => i.id)).toEqual([
      '1001',
    ]);
    expect(sent(from).map((u) => `${u.pathname}?${u.searchParams.get('assignee') ?? ''}`)).toEqual([
      '/user?',
      '/repos/octocat/hello-world/issues?octocat',
    ]);
    expect((await poll('newIssues', { repo: 'octocat/hello-world', issueType: 'created' })).map((i) => i.id)).toEqual([
      '1001',
    ]);
    expect((await poll('newIssues', { repo: 'octocat/hello-world', issueType: 'mentioned' })).map((i) => i.id)).toEqual(
      ['1003'],
    );
  });

  it("newIssues: without a repository, the account's issues by GitHub's filter; subscriptions narrowed to the repository", async () => {
    const from = since();
    expect((await poll('newIssues', { issueType: 'created' })).map((i) => i.id)).toEqual(['1001']);
    expect(sent(from)[0]?.pathname).toBe('/issues');
    expect(sent(from)[0]?.searchParams.get('filter')).toBe('created');
    expect(
      (await poll('newIssues', { repo: 'octocat/hello-world', issueType: 'subscribed' })).map((i) => i.id),
    ).toEqual(['1003']);
    expect(
      (await poll('newIssues', { repo: 'octocat/spoon-knife', issueType: 'subscribed' })).map((i) => i.id),
    ).toEqual([]);
  });

  it('newPullRequests: newest first, with their ids', async () => {
    const items = await poll('newPullRequests', { repo: 'octocat/hello-world' });
    expect(items.map((i) => i.id)).toEqual(['2005', '2002']);
    expect(items[0]?.data).toMatchObject({ number: 5, title: 'Fix login' });
  });

  it('newStargazers: the last pages (GitHub lists stars oldest first), newest first, with starred_at', async () => {
    github.repos.pageLimit = 2;
    const from = since();
    const items = await poll('newStargazers', { repo: 'octocat/hello-world' });
    expect(items.map((i) => i.id)).toEqual([
      '15:2024-02-05T08:00:00Z',
      '14:2024-02-04T08:00:00Z',
      '13:2024-02-03T08:00:00Z',
    ]);
    expect(items[0]?.data).toEqual({ id: 15, login: 'fan-5', type: 'User', starred_at: '2024-02-05T08:00:00Z' });
    const requests = github.requests.slice(from);
    expect(requests.map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual([null, '3', '2']);
    for (const request of requests) expect(request.headers.accept).toBe('application/vnd.github.star+json');
  });

  it('newWatchers: the newest watchers first; one page when there is one', async () => {
    expect((await poll('newWatchers', { repo: 'octocat/hello-world' })).map((i) => i.id)).toEqual([
      '25',
      '24',
      '23',
      '22',
      '21',
    ]);
    github.repos.pageLimit = 2;
    expect((await poll('newWatchers', { repo: 'octocat/hello-world' })).map((i) => i.id)).toEqual(['25', '24', '23']);
  });
});

describe('github: more actions', () => {
  const act = async (key: string, parameters: Record<string, unknown>) => {
    const credentials = await connect();
    return catalog.runAction({
      appKey: 'github',
      key,
      parameters,
      connection: { credentials, oauth: { client: github.client } },
      execution: null,
    });
  };
  const last = () => github.requests.at(-1);

  it('createIssueComment posts the comment on the issue', async () => {
    const output = await act('createIssueComment', { repo: 'octocat/hello-world', issueNumber: '3', body: 'Fixed.' });
    expect(output).toMatchObject({ body: 'Fixed.', issue_url: expect.stringContaining('/issues/3') });
    expect(last()).toMatchObject({ method: 'POST', url: '/repos/octocat/hello-world/issues/3/comments' });
    expect(JSON.parse(last()?.body ?? '')).toEqual({ body: 'Fixed.' });
  });

  it("updateIssue sends only what was given, and fails with GitHub's words on an unknown issue", async () => {
    const output = await act('updateIssue', {
      repo: 'octocat/hello-world',
      issueNumber: 4,
      state: 'closed',
      stateReason: 'not_planned',
    });
    expect(output).toMatchObject({ number: 4, title: 'Crash on start', state: 'closed', state_reason: 'not_planned' });
    expect(last()?.method).toBe('PATCH');
    expect(JSON.parse(last()?.body ?? '')).toEqual({ state: 'closed', state_reason: 'not_planned' });
    await expect(act('updateIssue', { repo: 'octocat/hello-world', issueNumber: 99, title: 'x' })).rejects.toThrow(
      `PATCH ${github.url}/repos/octocat/hello-world/issues/99 answered 404: Not Found`,
    );
  });

  it('addLabelsToIssue adds labels and answers all of them; an unknown label is refused', async () => {
    const output = await act('addLabelsToIssue', { repo: 'octocat/hello-world', issueNumber: 3, labels: ['question'] });
    expect(output).toEqual({ labels: [{ name: 'docs' }, { name: 'question' }] });
    expect(JSON.parse(last()?.body ?? '')).toEqual({ labels: ['question'] });
    await expect(
      act('addLabelsToIssue', { repo: 'octocat/hello-world', issueNumber: 3, labels: ['nope'] }),
    ).rejects.toThrow(/answered 422: Validation Failed/);
  });

  it('createPullRequest opens one from head into base; GitHub refuses the same branch', async () => {
    const output = await act('createPullRequest', {
      repo: 'octocat/hello-world',
      title: 'Fix crash',
      head: 'fix',
      base: 'main',
    });
    expect(output).toMatchObject({ number: 6, title: 'Fix crash', head: { ref: 'fix' }, base: { ref: 'main' } });
    expect(JSON.parse(last()?.body ?? '')).toEqual({ title: 'Fix crash', head: 'fix', base: 'main', draft: false });
    await expect(
      act('createPullRequest', { repo: 'octocat/hello-world', title: 'x', head: 'main', base: 'main' }),
    ).rejects.toThrow(/answered 422: Validation Failed/);
  });

  it('turns a rate limit into a retryable failure', async () => {
    const credentials = await connect();
    const runner = createStepRunner(catalog, builtInApps);
    github.rateLimit(1);
    const outcome = await runner.runAction({
      appKey: 'github',
      key: 'createIssueComment',
      parameters: { repo: 'octocat/hello-world', issueNumber: 1, body: 'Hi' },
      connection: { credentials, oauth: { client: github.client } },
      execution: null,
    } as never);
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('github: dynamic data over several pages', () => {
  const load = async (key: string, parameters: Record<string, unknown> = {}) => {
    const credentials = await connect();
    return catalog.dynamicData({
      appKey: 'github',
      key,
      parameters,
      connection: { credentials, oauth: { client: github.client } },
    });
  };

  afterEach(() => {
    github.repos.pageLimit = 100;
  });

  it('collects every page of repositories, labels and branches', async () => {
    github.repos.pageLimit = 1;
    expect((await load('listRepos')).map((o) => o.value)).toEqual(['octocat/hello-world', 'octocat/spoon-knife']);
    github.repos.pageLimit = 2;
    const from = github.requests.length;
    expect((await load('listLabels', { repo: 'octocat/hello-world' })).map((o) => o.value)).toEqual([
      'bug',
      'docs',
      'enhancement',
      'good first issue',
      'question',
    ]);
    expect(github.requests.slice(from).filter((r) => r.url.includes('/labels'))).toHaveLength(3);
    expect(await load('listBranches', { repo: 'octocat/hello-world' })).toEqual([
      { name: 'main', value: 'main' },
      { name: 'dark', value: 'dark' },
      { name: 'fix', value: 'fix' },
    ]);
  });

  it('lists no labels or branches until a repository is chosen', async () => {
    expect(await load('listLabels', {})).toEqual([]);
    expect(await load('listBranches', { repo: 'not a repo' })).toEqual([]);
  });
});

describe('github: Automatisch compatibility', () => {
  it("keeps Automatisch's app key, trigger and action keys and their argument keys", () => {
    const app = builtInApps.find((a) => a.key === 'github');
    const steps = (list: readonly { key: string; arguments: readonly { key: string }[] }[]) =>
      Object.fromEntries(list.map((s) => [s.key, s.arguments.map((a) => a.key)]));
    expect(app?.manifest.auth.clientFields.map((f) => f.key)).toEqual(
      expect.arrayContaining(['clientId', 'clientSecret']),
    );
    expect(steps(app?.manifest.triggers ?? [])).toMatchObject({
      newIssues: ['repo', 'issueType', 'label'],
      newPullRequests: ['repo'],
      newStargazers: ['repo'],
      newWatchers: ['repo'],
      newPullRequestEvent: ['repo'],
    });
    expect(steps(app?.manifest.actions ?? [])).toMatchObject({ createIssue: ['repo', 'title', 'body'] });
    expect(Object.keys(app?.dynamicData ?? {})).toEqual(expect.arrayContaining(['listRepos', 'listLabels']));
  });
});

describe('github: instant trigger newPullRequestEvent', () => {
  const WEBHOOK_URL = 'https://conveyor.test/webhooks/flows/flow-1';
  const delivery = (hook: { secret: string }, event: string, body: unknown, signature?: string) => {
    const rawBody = JSON.stringify(body);
    return {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-github-delivery': 'a1b2c3',
        'x-hub-signature-256': signature ?? `sha256=${createHmac('sha256', hook.secret).update(rawBody).digest('hex')}`,
      },
      query: {},
      body,
      rawBody,
    };
  };

  it('registers a pull_request hook with a secret of its own, checks signatures, and unregisters', async () => {
    const credentials = await connect();
    const call = { auth: credentials, oauthClient: github.client, parameters: { repo: 'octocat/hello-world' } };
    const hook = (await registerAppHook(githubApp, 'newPullRequestEvent', { ...call, webhookUrl: WEBHOOK_URL })) as {
      id: number;
      secret: string;
      repo: string;
    };
    expect(hook).toEqual({
      id: expect.any(Number),
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      repo: 'octocat/hello-world',
    });
    expect(github.repos.hooks).toEqual([
      { id: hook.id, events: ['pull_request'], url: WEBHOOK_URL, secret: hook.secret },
    ]);

    const event = { action: 'opened', number: 5, pull_request: { id: 2005, title: 'Fix login' } };
    const items = await runAppTrigger(githubApp, 'newPullRequestEvent', {
      ...call,
      hook,
      webhook: delivery(hook, 'pull_request', event),
    });
    expect(items).toEqual([{ id: 'a1b2c3', data: event }]);

    await expect(
      runAppTrigger(githubApp, 'newPullRequestEvent', {
        ...call,
        hook,
        webhook: delivery(hook, 'pull_request', event, `sha256=${'0'.repeat(64)}`),
      }),
    ).rejects.toMatchObject({ name: 'WebhookRefusedError', message: expect.stringContaining('X-Hub-Signature-256') });
    await expect(
      runAppTrigger(githubApp, 'newPullRequestEvent', {
        ...call,
        hook: null,
        webhook: delivery(hook, 'pull_request', event),
      }),
    ).rejects.toMatchObject({ name: 'WebhookRefusedError' });
    await expect(
      runAppTrigger(githubApp, 'newPullRequestEvent', {
        ...call,
        hook,
        webhook: delivery(hook, 'ping', { zen: 'Hi' }),
      }),
    ).rejects.toMatchObject({ name: 'WebhookReplyRequested', reply: { status: 200 } });

    await unregisterAppHook(githubApp, 'newPullRequestEvent', { ...call, webhookUrl: WEBHOOK_URL, hook });
    expect(github.repos.hooks).toEqual([]);
    // Deleted already: nothing left to do, and no failure.
    await unregisterAppHook(githubApp, 'newPullRequestEvent', { ...call, webhookUrl: WEBHOOK_URL, hook });
  });

  it("fails the publish with GitHub's words when it refuses the hook", async () => {
    const credentials = await connect();
    const call = { auth: credentials, oauthClient: github.client, parameters: { repo: 'octocat/hello-world' } };
    const hook = await registerAppHook(githubApp, 'newPullRequestEvent', { ...call, webhookUrl: WEBHOOK_URL });
    await expect(
      registerAppHook(githubApp, 'newPullRequestEvent', { ...call, webhookUrl: WEBHOOK_URL }),
    ).rejects.toThrow(/answered 422: Validation Failed/);
    await unregisterAppHook(githubApp, 'newPullRequestEvent', { ...call, webhookUrl: WEBHOOK_URL, hook });
  });
});
