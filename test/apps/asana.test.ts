import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { asana } from '../../adapters/apps/asana/index.js';
import {
  createMemoryStore,
  type Store,
  WebhookRefusedError,
  WebhookReplyRequested,
} from '../../adapters/apps/sdk/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { consentUrl } from './support/app-steps.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

const CLIENT = { clientId: 'asana-client', clientSecret: 'asana-secret' };
const valid = new Set(['asana-access-1']);
const AUTH = { accessToken: 'asana-access-1', refreshToken: 'asana-refresh', tokenType: 'bearer' };

/** Asana's pages: `{ data, next_page: { offset, path, uri } }`, the offset an opaque token. */
const page = (req: FakeRequest, all: readonly unknown[], size = 2) => {
  const start = Number(req.query.offset ?? 0);
  const more = start + size < all.length;
  return {
    data: all.slice(start, start + size),
    next_page: more ? { offset: String(start + size), path: `${req.path}?offset=${start + size}`, uri: 'x' } : null,
  };
};

const WORKSPACES = Array.from({ length: 5 }, (_, i) => ({ gid: `w${i + 1}`, name: `Workspace ${i + 1}` }));
const TASKS = [
  { gid: 't1', name: 'Write spec', created_at: '2025-01-01T10:00:00.000Z', completed: false },
  {
    gid: 't3',
    name: 'Ship',
    created_at: '2025-01-03T10:00:00.000Z',
    completed: true,
    completed_at: '2025-01-05T09:00:00.000Z',
  },
  {
    gid: 't2',
    name: 'Review',
    created_at: '2025-01-02T10:00:00.000Z',
    completed: true,
    completed_at: '2025-01-06T09:00:00.000Z',
  },
];
const notAuthorized = reply(401, { errors: [{ message: 'Not Authorized' }] });

const startAsana = () =>
  startFakeVendor({
    authorize: (req) =>
      req.path.startsWith('/-/') || valid.has(req.headers.authorization?.replace(/^Bearer /, '') ?? ''),
    unauthorized: notAuthorized,
    routes: {
      'POST /-/oauth_token': (req) => {
        const form = req.body as Record<string, string>;
        if (form.client_secret !== CLIENT.clientSecret) {
          return reply(401, { error: 'invalid_client', error_description: 'The client secret is wrong.' });
        }
        if (form.grant_type === 'refresh_token' && form.refresh_token === 'asana-refresh') {
          valid.add('asana-access-2');
          return { access_token: 'asana-access-2', token_type: 'bearer', expires_in: 3600 };
        }
        if (form.grant_type === 'authorization_code' && form.code === 'good-code') {
          return {
            access_token: 'asana-access-1',
            refresh_token: 'asana-refresh',
            token_type: 'bearer',
            expires_in: 3600,
            data: { id: 1, gid: '1', name: 'Ann Lee', email: 'ann@example.com' },
          };
        }
        return reply(400, { error: 'invalid_grant', error_description: 'The code is invalid or expired.' });
      },
      'GET /users/me': () => ({ data: { gid: '1', name: 'Ann Lee', email: 'ann@example.com' } }),
      'GET /workspaces': (req) => page(req, WORKSPACES),
      'GET /projects': (req) =>
        page(req, [
          { gid: 'p1', name: 'Launch', created_at: '2025-01-01T00:00:00.000Z' },
          { gid: 'p2', name: 'Roadmap', created_at: '2025-02-01T00:00:00.000Z' },
          { gid: 'p3', name: 'Launch plan', created_at: '2025-03-01T00:00:00.000Z' },
        ]),
      'GET /projects/:gid/sections': () => ({ data: [{ gid: 's1', name: 'To do' }], next_page: null }),
      'GET /projects/:gid/tasks': (req) => page(req, TASKS),
      'GET /workspaces/:gid/teams': () => ({ data: [{ gid: 'team1', name: 'Design' }], next_page: null }),
      'GET /users': () => ({ data: [{ gid: '1', name: 'Ann Lee' }], next_page: null }),
      'GET /tags': () => ({ data: [{ gid: 'tag1', name: 'urgent' }], next_page: null }),
      'GET /tasks': (req) =>
        page(req, req.query.completed_since === 'now' ? TASKS.filter((task) => !task.completed) : TASKS, 2),
      'POST /tasks': (req) => {
        const { data } = req.body as { data: { workspace?: string } };
        if (data.workspace === 'w-gone') {
          return reply(400, { errors: [{ message: 'workspace: Not a recognized ID: w-gone', help: 'See docs' }] });
        }
        return reply(201, { data: { gid: 't9', resource_type: 'task', ...data } });
      },
      'POST /webhooks': async (req) => {
        // Asana's handshake: before answering, it posts a secret to the target and wants it back.
        const secret = 'asana-hook-secret';
        const echoed = await runAppTrigger(asana, 'newTaskEvent', {
          ...call({ workspaceId: 'w1', projectId: 'p1' }),
          store: handshakeStore,
          webhook: { method: 'POST', headers: { 'x-hook-secret': secret }, query: {}, body: null, rawBody: '' },
        }).catch((error: unknown) => error);
        if (!(echoed instanceof WebhookReplyRequested) || echoed.reply.headers?.['X-Hook-Secret'] !== secret) {
          return reply(400, { errors: [{ message: 'The remote server did not respond with the handshake secret.' }] });
        }
        const { data } = req.body as { data: object };
        return reply(201, { data: { gid: 'wh-1', resource_type: 'webhook', active: true, ...data } });
      },
      'DELETE /webhooks/:gid': () => ({ data: {} }),
      'POST /projects': (req) => reply(201, { data: { gid: 'p9', ...(req.body as { data: object }).data } }),
    },
  });

let vendor: FakeVendor;
/** The flow's store, which the handshake and the registration share. */
let handshakeStore: Store = createMemoryStore();
beforeAll(async () => {
  vendor = await startAsana();
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({ auth: AUTH, baseUrl: vendor.url, parameters });
const oauth = () => ({ authUrl: vendor.url, baseUrl: vendor.url, oauthClient: CLIENT });

describe('asana: connection', () => {
  it("sends the user to Asana's consent page with the client id, redirect and state", () => {
    const url = consentUrl(asana, CLIENT);
    expect(`${url.origin}${url.pathname}`).toBe('https://app.asana.com/-/oauth_authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT.clientId,
      redirect_uri: TEST_REDIRECT_URI,
      state: 's-1',
      response_type: 'code',
    });
  });

  it('exchanges the code and names the account', async () => {
    const check = await verifyAppAuth(asana, { code: 'good-code', state: 's-1' }, oauth());
    expect(check).toMatchObject({
      ok: true,
      screenName: 'Ann Lee - ann@example.com',
      credentials: { accessToken: 'asana-access-1', refreshToken: 'asana-refresh', expiresAt: expect.any(String) },
    });
    expect(vendor.calls('POST /-/oauth_token').at(-1)?.body).toMatchObject({
      grant_type: 'authorization_code',
      code: 'good-code',
      redirect_uri: TEST_REDIRECT_URI,
      client_id: CLIENT.clientId,
    });
  });

  it("is refused with Asana's reason", async () => {
    const check = await verifyAppAuth(asana, { code: 'old-code' }, oauth());
    expect(check).toEqual({ ok: false, reason: 'Authorization failed: The code is invalid or expired.' });
  });

  it('refreshes an expired access token once and goes on', async () => {
    const store = createMemoryStore();
    const workspaces = await loadAppDynamicData(asana, 'listWorkspaces', {
      auth: { ...AUTH, accessToken: 'expired-token' },
      baseUrl: vendor.url,
      authUrl: vendor.url,
      oauthClient: CLIENT,
      store,
    });
    expect(workspaces).toHaveLength(5);
    expect(vendor.calls('POST /-/oauth_token').at(-1)?.body).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'asana-refresh',
    });
    expect(vendor.calls('GET /workspaces').at(-3)?.headers.authorization).toBe('Bearer asana-access-2');
  });
});

describe("asana: Automatisch's keys", () => {
  it('keeps the app, client, action, argument and dynamic data keys', () => {
    const actions = Object.fromEntries(
      asana.manifest.actions.map((step) => [step.key, step.arguments.map((argument) => argument.key)]),
    );
    expect(asana.key).toBe('asana');
    expect(asana.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(actions).toEqual({
      createProject: [
        'workspaceId',
        'teamId',
        'dueDate',
        'name',
        'notes',
        'richText',
        'defaultView',
        'ownerId',
        'followerIds',
      ],
      createTask: [
        'workspaceId',
        'projectId',
        'sectionId',
        'dueDateType',
        'dueDate',
        'name',
        'description',
        'richText',
        'taskCompleted',
        'taskLiked',
        'assigneeId',
        'followerIds',
        'tagIds',
      ],
      findProject: ['workspaceId', 'name'],
      findTaskInProject: ['workspaceId', 'projectId', 'taskName'],
    });
    expect(Object.keys(asana.dynamicData).sort()).toEqual([
      'listProjects',
      'listSections',
      'listTags',
      'listTeams',
      'listUsers',
      'listWorkspaces',
    ]);
  });
});

describe('asana: actions', () => {
  it("creates a task from Automatisch's parameters: rich text, a section, rows of followers and tags", async () => {
    const task = await runAppAction(
      asana,
      'createTask',
      call({
        workspaceId: 'w1',
        projectId: 'p1',
        sectionId: 's1',
        dueDateType: 'on',
        dueDate: '2025-09-15',
        name: 'Ship',
        description: '<strong>Now</strong>',
        richText: 'true',
        taskCompleted: 'false',
        assigneeId: '1',
        followerIds: [{ followerId: '1' }, { followerId: '' }],
        tagIds: [{ tagId: 'tag1' }],
      }),
    );
    expect(vendor.calls('POST /tasks').at(-1)?.body).toEqual({
      data: {
        workspace: 'w1',
        name: 'Ship',
        html_notes: '<body><strong>Now</strong></body>',
        due_on: '2025-09-15',
        completed: false,
        assignee: '1',
        followers: ['1'],
        tags: ['tag1'],
        memberships: [{ project: 'p1', section: 's1' }],
      },
    });
    expect(task).toMatchObject({ gid: 't9', resource_type: 'task', name: 'Ship' });
  });

  it('puts a task without a section in its project, due at a time by default', async () => {
    await runAppAction(
      asana,
      'createTask',
      call({ workspaceId: 'w1', projectId: 'p1', name: 'Plain', description: 'Text', dueDate: '2025-09-15T10:00:00Z' }),
    );
    expect(vendor.calls('POST /tasks').at(-1)?.body).toEqual({
      data: { workspace: 'w1', name: 'Plain', notes: 'Text', due_at: '2025-09-15T10:00:00Z', projects: ['p1'] },
    });
  });

  it("fails with the first of Asana's errors", async () => {
    await expect(runAppAction(asana, 'createTask', call({ workspaceId: 'w-gone', name: 'X' }))).rejects.toThrow(
      /400: workspace: Not a recognized ID: w-gone/,
    );
  });

  it('creates a project with its followers as Asana takes them', async () => {
    const project = await runAppAction(
      asana,
      'createProject',
      call({ workspaceId: 'w1', teamId: 'team1', name: 'Q3', defaultView: 'board', followerIds: ['1', '2'] }),
    );
    expect(vendor.calls('POST /projects').at(-1)?.body).toEqual({
      data: { workspace: 'w1', team: 'team1', name: 'Q3', default_view: 'board', followers: '1,2' },
    });
    expect(project).toMatchObject({ gid: 'p9', name: 'Q3' });
  });

  it('finds a project and a task by exact name, across pages, or answers null', async () => {
    expect(await runAppAction(asana, 'findProject', call({ workspaceId: 'w1', name: 'Launch plan' }))).toMatchObject({
      gid: 'p3',
    });
    expect(await runAppAction(asana, 'findProject', call({ workspaceId: 'w1', name: 'Nope' }))).toBeNull();
    expect(
      await runAppAction(asana, 'findTaskInProject', call({ workspaceId: 'w1', projectId: 'p1', taskName: 'Review' })),
    ).toMatchObject({ gid: 't2' });
  });

  it("turns Asana's rate limit into a retryable failure", async () => {
    const outcome = await rateLimitedOutcome(asana, vendor, {
      key: 'findProject',
      parameters: { workspaceId: 'w1', name: 'Launch' },
      credentials: AUTH,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('asana: polling triggers', () => {
  it("hands a project's new tasks newest first, reading only incomplete ones", async () => {
    const items = await runAppTrigger(asana, 'newTask', call({ workspaceId: 'w1', projectId: 'p1' }));
    expect(items.map((item) => item.id)).toEqual(['t1']);
    expect(vendor.calls('GET /tasks').at(-1)?.query).toMatchObject({ project: 'p1', completed_since: 'now' });
  });

  it('hands each completion of the last week, newest first', async () => {
    const items = await runAppTrigger(asana, 'completedTask', call({ workspaceId: 'w1', projectId: 'p1' }));
    expect(items.map((item) => item.id)).toEqual(['t2:2025-01-06T09:00:00.000Z', 't3:2025-01-05T09:00:00.000Z']);
  });

  it("hands a workspace's new projects newest first, across pages", async () => {
    const items = await runAppTrigger(asana, 'newProject', call({ workspaceId: 'w1', teamId: 'team1' }));
    expect(items.map((item) => item.id)).toEqual(['p3', 'p2', 'p1']);
    expect(vendor.calls('GET /projects').at(-2)?.query).toMatchObject({ workspace: 'w1', team: 'team1', limit: '100' });
  });
});

describe('asana: dynamic data', () => {
  it('collects every page of workspaces', async () => {
    const workspaces = await loadAppDynamicData(asana, 'listWorkspaces', call());
    expect(workspaces.map((workspace) => workspace.value)).toEqual(['w1', 'w2', 'w3', 'w4', 'w5']);
    expect(
      vendor
        .calls('GET /workspaces')
        .slice(-3)
        .map((req) => req.query.offset),
    ).toEqual([undefined, '2', '4']);
  });

  it('lists what lives in the workspace or project chosen, and nothing before', async () => {
    const workspace = call({ workspaceId: 'w1' });
    expect(await loadAppDynamicData(asana, 'listTeams', workspace)).toEqual([{ name: 'Design', value: 'team1' }]);
    expect(await loadAppDynamicData(asana, 'listUsers', workspace)).toEqual([{ name: 'Ann Lee', value: '1' }]);
    expect(await loadAppDynamicData(asana, 'listTags', workspace)).toEqual([{ name: 'urgent', value: 'tag1' }]);
    expect(await loadAppDynamicData(asana, 'listProjects', workspace)).toHaveLength(3);
    expect(await loadAppDynamicData(asana, 'listSections', call({ projectId: 'p1' }))).toEqual([
      { name: 'To do', value: 's1' },
    ]);
    expect(await loadAppDynamicData(asana, 'listProjects', call())).toEqual([]);
  });
});

const HOOK = { id: 'wh-1', secret: 'asana-hook-secret' };
const WEBHOOK_URL = 'https://conveyor.example/webhooks/flows/f-1';

const signed = (body: object, secret = HOOK.secret) => {
  const rawBody = JSON.stringify(body);
  const signature = createHmac('sha256', secret).update(rawBody).digest('hex');
  return { method: 'POST', headers: { 'x-hook-signature': signature }, query: {}, body, rawBody };
};

describe('asana: instant trigger', () => {
  it('registers a webhook on the project, answering the handshake Asana makes meanwhile, and keeps its secret', async () => {
    handshakeStore = createMemoryStore();
    const hook = await registerAppHook(asana, 'newTaskEvent', {
      ...call({ workspaceId: 'w1', projectId: 'p1', action: 'changed' }),
      store: handshakeStore,
      webhookUrl: WEBHOOK_URL,
    });
    expect(hook).toEqual(HOOK);
    expect(vendor.calls('POST /webhooks').at(-1)?.body).toEqual({
      data: { resource: 'p1', target: WEBHOOK_URL, filters: [{ resource_type: 'task', action: 'changed' }] },
    });
    expect(await handshakeStore.get('asana:hookSecret')).toBeNull();
  });

  it('refuses a handshake once a webhook is registered', async () => {
    await expect(
      runAppTrigger(asana, 'newTaskEvent', {
        ...call({ workspaceId: 'w1', projectId: 'p1' }),
        webhook: { method: 'POST', headers: { 'x-hook-secret': 'another' }, query: {}, body: null, rawBody: '' },
        hook: HOOK,
      }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
  });

  it('hands each event of a signed delivery, none for a heartbeat, and refuses a forged one', async () => {
    const event = {
      user: { gid: '1' },
      created_at: '2025-01-01T10:00:00.000Z',
      action: 'changed',
      resource: { gid: 't1', resource_type: 'task' },
      change: { field: 'completed', action: 'changed' },
    };
    const parameters = call({ workspaceId: 'w1', projectId: 'p1' });
    expect(
      await runAppTrigger(asana, 'newTaskEvent', { ...parameters, webhook: signed({ events: [event] }), hook: HOOK }),
    ).toEqual([{ id: 't1:changed:completed:2025-01-01T10:00:00.000Z', data: event }]);
    expect(
      await runAppTrigger(asana, 'newTaskEvent', { ...parameters, webhook: signed({ events: [] }), hook: HOOK }),
    ).toEqual([]);
    await expect(
      runAppTrigger(asana, 'newTaskEvent', {
        ...parameters,
        webhook: signed({ events: [event] }, 'guess'),
        hook: HOOK,
      }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
  });

  it('deletes the webhook on unpublish', async () => {
    await unregisterAppHook(asana, 'newTaskEvent', {
      ...call({ workspaceId: 'w1', projectId: 'p1' }),
      webhookUrl: WEBHOOK_URL,
      hook: HOOK,
    });
    expect(vendor.calls('DELETE /webhooks/:gid').at(-1)?.path).toBe('/webhooks/wh-1');
  });
});
