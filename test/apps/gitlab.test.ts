import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { gitlab } from '../../adapters/apps/gitlab/index.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import type { Credentials } from '../../core/domain/app.js';
import { type FakeGitLab, GITLAB_CLIENT, startFakeGitLab } from './support/gitlab-fake.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

let fake: FakeGitLab;
/** An OAuth client whose instance is the fake: a self-managed GitLab. */
let client: typeof GITLAB_CLIENT & { instanceUrl: string };

beforeAll(async () => {
  fake = await startFakeGitLab();
  client = { ...GITLAB_CLIENT, instanceUrl: fake.vendor.url };
});
afterAll(() => fake.vendor.close());
afterEach(() => {
  fake.limits.page = 100;
});

const connect = async (): Promise<Credentials> => {
  const code = `code-${Math.random()}`;
  fake.allowCode(code);
  const check = await verifyAppAuth(gitlab, { code, state: 's' }, { oauthClient: client });
  if (!check.ok) throw new Error(check.reason);
  return check.credentials;
};

const authUrl = (settings: typeof GITLAB_CLIENT) => {
  if (gitlab.auth.kind !== 'oauth2') throw new Error('gitlab uses OAuth2');
  return new URL(gitlab.auth.authorizationUrl(settings, { redirectUri: TEST_REDIRECT_URI, state: 'st' }));
};

describe('gitlab: connection', () => {
  it("sends the user to the instance's consent page with the client id, scopes and redirect", () => {
    const url = authUrl(client);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.vendor.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'gl-app',
      redirect_uri: TEST_REDIRECT_URI,
      state: 'st',
      response_type: 'code',
      scope: 'api read_user',
    });
    expect(authUrl(GITLAB_CLIENT).origin).toBe('https://gitlab.com');
  });

  it('exchanges the code at the instance and names the account with its server', async () => {
    fake.allowCode('c-1');
    const before = fake.vendor.calls('POST /oauth/token').length;
    const check = await verifyAppAuth(gitlab, { code: 'c-1', state: 's' }, { oauthClient: client });
    expect(check).toMatchObject({ ok: true, screenName: `ada @ ${new URL(fake.vendor.url).host}` });
    const exchange = fake.vendor.calls('POST /oauth/token').at(before);
    expect(exchange?.body).toEqual({
      grant_type: 'authorization_code',
      code: 'c-1',
      redirect_uri: TEST_REDIRECT_URI,
      client_id: 'gl-app',
      client_secret: 'gl-secret',
    });
    expect(fake.vendor.calls('GET /api/v4/user').at(-1)?.headers.authorization).toMatch(/^Bearer gl-access-/);
  });

  it("reports GitLab's reason for a refused code, and works on gitlab.com's addresses moved by the overrides", async () => {
    const refused = await verifyAppAuth(gitlab, { code: 'nope', state: 's' }, { oauthClient: client });
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Authorization failed: The provided authorization grant is invalid/),
    });
    fake.allowCode('c-2');
    const moved = await verifyAppAuth(
      gitlab,
      { code: 'c-2', state: 's' },
      { oauthClient: GITLAB_CLIENT, baseUrl: `${fake.vendor.url}/api/v4`, authUrl: fake.vendor.url },
    );
    expect(moved).toMatchObject({ ok: true, screenName: 'ada' });
  });

  it('refreshes an expired token once and goes on', async () => {
    const credentials = await connect();
    fake.expire(String(credentials.accessToken));
    const before = fake.vendor.calls('POST /oauth/token').length;
    const output = await runAppAction(gitlab, 'createIssueComment', {
      auth: credentials,
      oauthClient: client,
      parameters: { projectId: '7', issueIid: 1, body: 'Still there' },
    });
    expect(output).toMatchObject({ id: 5001, body: 'Still there' });
    const refresh = fake.vendor.calls('POST /oauth/token').slice(before);
    expect(refresh.map((r) => (r.body as Record<string, string>).grant_type)).toEqual(['refresh_token']);
  });
});

describe('gitlab: polling triggers', () => {
  const poll = async (key: string, parameters: Record<string, unknown>) =>
    runAppTrigger(gitlab, key, { auth: await connect(), oauthClient: client, parameters });

  it("newIssues: the project's issues newest first, by labels", async () => {
    const items = await poll('newIssues', { projectId: '7' });
    expect(items.map((i) => i.id)).toEqual(['703', '702', '701']);
    expect(items[0]?.data).toMatchObject({ iid: 3, title: 'Issue 3' });
    expect(fake.vendor.calls('GET /api/v4/projects/:id/issues').at(-1)?.query).toEqual({
      order_by: 'created_at',
      sort: 'desc',
      per_page: '100',
    });
    expect((await poll('newIssues', { projectId: 'acme/web', labels: 'bug' })).map((i) => i.id)).toEqual(['702']);
    expect(fake.vendor.calls('GET /api/v4/projects/:id/issues').at(-1)?.path).toBe(
      '/api/v4/projects/acme%2Fweb/issues',
    );
  });

  it('asks only for issues since the newest the poll before last saw', async () => {
    const call = {
      auth: await connect(),
      oauthClient: client,
      parameters: { projectId: '7' },
      store: createMemoryStore(),
    };
    for (let poll = 0; poll < 3; poll++) await runAppTrigger(gitlab, 'newIssues', call);
    const sent = fake.vendor.calls('GET /api/v4/projects/:id/issues').slice(-3);
    expect(sent.map((r) => r.query.created_after)).toEqual([undefined, undefined, '2024-03-03T09:00:00.000Z']);
  });

  it('newMergeRequests: newest first, optionally into one branch', async () => {
    expect((await poll('newMergeRequests', { projectId: '7' })).map((i) => i.id)).toEqual(['902', '901']);
    expect((await poll('newMergeRequests', { projectId: '7', targetBranch: 'main' })).map((i) => i.id)).toEqual([
      '901',
    ]);
  });

  it("newCommits: a branch's commits newest first, ids their SHAs", async () => {
    expect((await poll('newCommits', { projectId: '7', branch: 'main' })).map((i) => i.id)).toEqual(['c3', 'c2', 'c1']);
    expect(fake.vendor.calls('GET /api/v4/projects/:id/repository/commits').at(-1)?.query.ref_name).toBe('main');
  });

  it("fails with GitLab's words for a project it does not know", async () => {
    await expect(poll('newIssues', { projectId: '404' })).rejects.toThrow(/answered 404: 404 Project Not Found/);
  });
});

describe('gitlab: actions', () => {
  const act = async (key: string, parameters: Record<string, unknown>) =>
    runAppAction(gitlab, key, { auth: await connect(), oauthClient: client, parameters });

  it('createIssue posts the issue to the project', async () => {
    const output = await act('createIssue', { projectId: '7', title: 'Broken build', labels: 'ci,bug' });
    expect(output).toMatchObject({ iid: 4, title: 'Broken build' });
    const sent = fake.vendor.calls('POST /api/v4/projects/:id/issues').at(-1);
    expect(sent?.body).toEqual({ title: 'Broken build', labels: 'ci,bug', confidential: false });
    expect(sent?.headers.authorization).toMatch(/^Bearer /);
  });

  it('createIssueComment adds a note; an unknown issue fails with its message', async () => {
    expect(await act('createIssueComment', { projectId: '7', issueIid: 2, body: 'Looking' })).toMatchObject({
      noteable_iid: 2,
      body: 'Looking',
    });
    await expect(act('createIssueComment', { projectId: '7', issueIid: 99, body: 'x' })).rejects.toThrow(
      /answered 404: 404 Issue Not Found/,
    );
  });

  it('updateIssue sends only what is given', async () => {
    const output = await act('updateIssue', { projectId: '7', issueIid: 1, stateEvent: 'close', addLabels: 'done' });
    expect(output).toMatchObject({ iid: 1, state: 'closed', labels: ['done'] });
    expect(fake.vendor.calls('PUT /api/v4/projects/:id/issues/:iid').at(-1)?.body).toEqual({
      state_event: 'close',
      add_labels: 'done',
    });
  });

  it("createMergeRequest opens one; a second from the same branch is refused with GitLab's words", async () => {
    const output = await act('createMergeRequest', {
      projectId: '7',
      sourceBranch: 'feature',
      targetBranch: 'main',
      title: 'Feature',
    });
    expect(output).toMatchObject({ iid: 3, source_branch: 'feature', target_branch: 'main' });
    expect(fake.vendor.calls('POST /api/v4/projects/:id/merge_requests').at(-1)?.body).toEqual({
      source_branch: 'feature',
      target_branch: 'main',
      title: 'Feature',
      remove_source_branch: false,
    });
    await expect(
      act('createMergeRequest', { projectId: '7', sourceBranch: 'release', targetBranch: 'main', title: 'Again' }),
    ).rejects.toThrow(/answered 409: .*Another open merge request already exists/);
  });

  it('turns a 429 into a retryable failure', async () => {
    const outcome = await rateLimitedOutcome(gitlab, fake.vendor, {
      key: 'createIssue',
      parameters: { projectId: '7', title: 'x' },
      credentials: await connect(),
      oauthClient: client,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('gitlab: dynamic data', () => {
  it('collects every page of projects (keyset) and branches (offset)', async () => {
    const auth = await connect();
    fake.limits.page = 2;
    const projects = await loadAppDynamicData(gitlab, 'listProjects', { auth, oauthClient: client });
    expect(projects).toEqual([
      { name: 'acme/docs', value: '3' },
      { name: 'acme/web', value: '7' },
      { name: 'acme/api', value: '9' },
    ]);
    expect(fake.vendor.calls('GET /api/v4/projects').at(-2)?.query).toMatchObject({
      membership: 'true',
      pagination: 'keyset',
      order_by: 'id',
      sort: 'asc',
    });
    const branches = await loadAppDynamicData(gitlab, 'listBranches', {
      auth,
      oauthClient: client,
      parameters: { projectId: '7' },
    });
    expect(branches.map((b) => b.value)).toEqual(['main', 'release', 'feature']);
    expect(await loadAppDynamicData(gitlab, 'listBranches', { auth, oauthClient: client })).toEqual([]);
  });
});

describe('gitlab: instant triggers (project webhooks)', () => {
  const WEBHOOK_URL = 'https://conveyor.test/webhooks/flows/flow-9';
  type Hook = { id: number; token: string; projectId: string };
  const delivery = (token: string, event: string, body: unknown) => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-gitlab-event': event,
      'x-gitlab-token': token,
      'x-gitlab-event-uuid': 'uuid-1',
    },
    query: {},
    body,
    rawBody: JSON.stringify(body),
  });

  it('registers a hook for its one event with a token of its own, checks the token, and unregisters', async () => {
    const call = { auth: await connect(), oauthClient: client, parameters: { projectId: '7' } };
    const hook = (await registerAppHook(gitlab, 'issues_events', { ...call, webhookUrl: WEBHOOK_URL })) as Hook;
    expect(hook).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^[0-9a-f]{64}$/), projectId: '7' });
    expect(fake.hooks.at(-1)?.settings).toEqual({
      url: WEBHOOK_URL,
      token: hook.token,
      enable_ssl_verification: true,
      push_events: false,
      issues_events: true,
    });

    const event = { object_kind: 'issue', object_attributes: { iid: 3, action: 'open' } };
    expect(
      await runAppTrigger(gitlab, 'issues_events', {
        ...call,
        hook,
        webhook: delivery(hook.token, 'Issue Hook', event),
      }),
    ).toEqual([{ id: 'uuid-1', data: event }]);
    await expect(
      runAppTrigger(gitlab, 'issues_events', { ...call, hook, webhook: delivery('guessed', 'Issue Hook', event) }),
    ).rejects.toMatchObject({ name: 'WebhookRefusedError', message: expect.stringContaining('X-Gitlab-Token') });
    await expect(
      runAppTrigger(gitlab, 'issues_events', { ...call, hook, webhook: delivery(hook.token, 'Push Hook', {}) }),
    ).rejects.toMatchObject({ name: 'WebhookReplyRequested', reply: { status: 200 } });

    await unregisterAppHook(gitlab, 'issues_events', { ...call, webhookUrl: WEBHOOK_URL, hook });
    expect(fake.hooks.some((h) => h.id === hook.id)).toBe(false);
    await unregisterAppHook(gitlab, 'issues_events', { ...call, webhookUrl: WEBHOOK_URL, hook });
  });

  it('push_events: the branch filter goes with the hook', async () => {
    const call = {
      auth: await connect(),
      oauthClient: client,
      parameters: { projectId: 'acme/web', branch_filter_strategy: 'wildcard', push_events_branch_filter: '*-stable' },
    };
    const hook = (await registerAppHook(gitlab, 'push_events', { ...call, webhookUrl: WEBHOOK_URL })) as Hook;
    expect(fake.hooks.at(-1)?.settings).toMatchObject({
      push_events: true,
      branch_filter_strategy: 'wildcard',
      push_events_branch_filter: '*-stable',
    });
    expect(fake.vendor.calls('POST /api/v4/projects/:id/hooks').at(-1)?.path).toBe('/api/v4/projects/acme%2Fweb/hooks');
    await unregisterAppHook(gitlab, 'push_events', { ...call, webhookUrl: WEBHOOK_URL, hook });
  });

  it("fails the publish with GitLab's words when it refuses the address", async () => {
    const call = { auth: await connect(), oauthClient: client, parameters: { projectId: '7' } };
    await expect(
      registerAppHook(gitlab, 'note_events', { ...call, webhookUrl: 'http://localhost:3000/webhooks/flows/x' }),
    ).rejects.toThrow(/answered 422: .*is blocked: Requests to localhost are not allowed/);
  });
});

describe('gitlab: Automatisch compatibility', () => {
  it("keeps Automatisch's app key, connection fields, trigger keys with their arguments, and `listProjects`", () => {
    expect(gitlab.key).toBe('gitlab');
    expect(gitlab.manifest.auth.clientFields.map((f) => f.key)).toEqual(['clientId', 'clientSecret', 'instanceUrl']);
    const triggers = Object.fromEntries(
      gitlab.manifest.triggers.map((t) => [t.key, { type: t.type, args: t.arguments.map((a) => a.key) }]),
    );
    const project = { type: 'webhook', args: ['projectId'] };
    expect(triggers).toMatchObject({
      confidential_issues_events: project,
      confidential_note_events: project,
      deployment_events: project,
      feature_flag_events: project,
      issues_events: project,
      job_events: project,
      merge_requests_events: project,
      note_events: project,
      pipeline_events: project,
      push_events: { type: 'webhook', args: ['projectId', 'branch_filter_strategy', 'push_events_branch_filter'] },
      releases_events: project,
      tag_push_events: project,
      wiki_page_events: project,
    });
    for (const trigger of gitlab.manifest.triggers) expect(trigger.arguments[0]?.dynamicData?.key).toBe('listProjects');
  });
});
