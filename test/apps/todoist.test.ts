import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { todoist } from '../../adapters/apps/todoist/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { consentUrl, stepArguments } from './support/app-steps.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

const CLIENT = { clientId: 'todoist-client', clientSecret: 'todoist-secret' };
const TOKEN = 'todoist-access-token';
const AUTH = { accessToken: TOKEN, tokenType: 'Bearer' };

/** Todoist API v1 pages: `{ results, next_cursor }`, the cursor an opaque text. */
const page = <T>(req: FakeRequest, all: readonly T[], size: number, key = 'results') => {
  const start = Number(req.query.cursor ?? 0);
  const next = start + size < all.length ? String(start + size) : null;
  return { [key]: all.slice(start, start + size), next_cursor: next };
};

const PROJECTS = Array.from({ length: 5 }, (_, i) => ({ id: `p${i + 1}`, name: `Project ${i + 1}` }));
const TASKS = [
  { id: '6Xa', content: 'Older', added_at: '2025-01-02T10:00:00Z', project_id: 'p1' },
  { id: '6Xc', content: 'Newest', added_at: '2025-01-03T10:00:00Z', project_id: 'p1' },
  { id: '6Xb', content: 'Oldest', added_at: '2025-01-01T10:00:00Z', project_id: 'p2' },
];

const startTodoist = () =>
  startFakeVendor({
    authorize: (req) => req.path.startsWith('/oauth/') || req.headers.authorization === `Bearer ${TOKEN}`,
    unauthorized: reply(401, { error: 'Invalid token', error_tag: 'AUTH_INVALID_TOKEN', http_code: 401 }),
    routes: {
      'POST /oauth/access_token': (req) => {
        const form = req.body as Record<string, string>;
        if (form.client_secret !== CLIENT.clientSecret) return reply(400, { error: 'invalid_client' });
        if (form.code !== 'good-code') return reply(400, { error: 'bad_authorization_code' });
        return { access_token: TOKEN, token_type: 'Bearer' };
      },
      'GET /user': () => ({ id: 'u1', full_name: 'Ann Lee', email: 'ann@example.com' }),
      'GET /projects': (req) => page(req, PROJECTS, 2),
      'GET /sections': (req) => page(req, [{ id: 's1', name: `Backlog of ${req.query.project_id}` }], 200),
      'GET /labels': (req) => page(req, [{ id: 'l1', name: 'work' }], 200),
      'GET /tasks': (req) => page(req, TASKS, 2),
      'GET /tasks/filter': () => ({ results: [TASKS[0]], next_cursor: null }),
      'GET /tasks/completed/by_completion_date': () => ({
        items: [
          { id: 't1', content: 'Water plants', completed_at: '2025-01-01T08:00:00Z' },
          { id: 't1', content: 'Water plants', completed_at: '2025-01-08T08:00:00Z' },
        ],
        next_cursor: null,
      }),
      'POST /tasks': (req) => {
        const body = req.body as { project_id?: string };
        if (body.project_id === 'gone') {
          return reply(404, { error: 'Project not found', error_code: 478, error_tag: 'NOT_FOUND', http_code: 404 });
        }
        return { id: '6Xz', ...body };
      },
      'POST /tasks/:id/close': () => reply(204),
    },
  });

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startTodoist();
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({ auth: AUTH, baseUrl: vendor.url, parameters });
const connect = (credentials: Record<string, unknown>, client = CLIENT) =>
  verifyAppAuth(todoist, credentials, { authUrl: vendor.url, baseUrl: vendor.url, oauthClient: client });

describe('todoist: connection', () => {
  it("sends the user to Todoist's consent page with the client id, the state and the comma-separated scope", () => {
    const url = consentUrl(todoist, CLIENT);
    expect(`${url.origin}${url.pathname}`).toBe('https://todoist.com/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe(CLIENT.clientId);
    expect(url.searchParams.get('scope')).toBe('data:read_write');
    expect(url.searchParams.get('state')).toBe('s-1');
    expect(url.toString()).not.toContain(CLIENT.clientSecret);
  });

  it('exchanges the code at the token endpoint and names the account', async () => {
    const check = await connect({ code: 'good-code', state: 's-1' });
    expect(check).toMatchObject({ ok: true, screenName: 'Ann Lee', credentials: { accessToken: TOKEN } });
    expect(vendor.calls('POST /oauth/access_token').at(-1)?.body).toMatchObject({
      code: 'good-code',
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
    });
  });

  it('shows the screen name the user gave, as Automatisch asked for one', async () => {
    expect(await connect({ code: 'good-code', screenName: 'Work tasks' })).toMatchObject({
      ok: true,
      screenName: 'Work tasks',
    });
  });

  it("is refused with Todoist's reason, never showing the secret", async () => {
    const refused = await connect({ code: 'stale-code' });
    expect(refused).toEqual({ ok: false, reason: 'Authorization failed: bad_authorization_code' });
    const wrongClient = await connect({ code: 'good-code' }, { ...CLIENT, clientSecret: 'not-the-secret' });
    expect(wrongClient).toEqual({ ok: false, reason: 'Authorization failed: invalid_client' });
    expect(JSON.stringify(wrongClient)).not.toContain('not-the-secret');
  });

  it('reports a revoked token with the words of the API', async () => {
    const check = await connect({ accessToken: 'revoked' });
    expect(check).toEqual({ ok: false, reason: expect.stringContaining('401: Invalid token') });
  });
});

describe("todoist: Automatisch's keys", () => {
  it('keeps the app, connection, trigger, action, argument and dynamic data keys', () => {
    const steps = stepArguments(todoist);
    expect(todoist.key).toBe('todoist');
    expect(todoist.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(todoist.manifest.auth.fields.map((field) => field.key)).toEqual(['screenName']);
    expect(steps).toMatchObject({
      getActiveTasks: ['projectId', 'sectionId', 'label', 'filter'],
      createTask: expect.arrayContaining(['projectId', 'sectionId', 'labels', 'content', 'description']),
    });
    expect(Object.keys(todoist.dynamicData).sort()).toEqual(['listLabels', 'listProjects', 'listSections']);
  });
});

describe('todoist: actions', () => {
  it('creates a task with its labels as a list, and answers it', async () => {
    const task = await runAppAction(
      todoist,
      'createTask',
      call({
        projectId: 'p1',
        sectionId: 's1',
        labels: 'work, imported,',
        content: 'Call **Bo**',
        priority: '4',
        dueString: 'tomorrow at 9',
      }),
    );
    expect(vendor.calls('POST /tasks').at(-1)?.body).toEqual({
      content: 'Call **Bo**',
      project_id: 'p1',
      section_id: 's1',
      labels: ['work', 'imported'],
      priority: 4,
      due_string: 'tomorrow at 9',
    });
    expect(task).toMatchObject({ id: '6Xz', content: 'Call **Bo**' });
  });

  it("fails with Todoist's message when it refuses the task", async () => {
    await expect(runAppAction(todoist, 'createTask', call({ projectId: 'gone', content: 'X' }))).rejects.toThrow(
      /404: Project not found/,
    );
  });

  it('completes a task', async () => {
    expect(await runAppAction(todoist, 'closeTask', call({ taskId: '6Xz' }))).toEqual({ id: '6Xz', completed: true });
    expect(vendor.calls('POST /tasks/:id/close').at(-1)?.path).toBe('/tasks/6Xz/close');
  });

  it("turns Todoist's rate limit into a retryable failure", async () => {
    const outcome = await rateLimitedOutcome(todoist, vendor, {
      key: 'closeTask',
      parameters: { taskId: '6Xz' },
      credentials: AUTH,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('todoist: polling triggers', () => {
  it('hands every active task, across pages, newest first by when it was added', async () => {
    const items = await runAppTrigger(todoist, 'getActiveTasks', call({ projectId: 'p1', label: 'work' }));
    expect(items.map((item) => item.id)).toEqual(['6Xc', '6Xa', '6Xb']);
    const pages = vendor.calls('GET /tasks').slice(-2);
    expect(pages.map((req) => req.query)).toEqual([
      { project_id: 'p1', label: 'work', limit: '200' },
      { project_id: 'p1', label: 'work', limit: '200', cursor: '2' },
    ]);
  });

  it('asks the filter endpoint when a filter is given', async () => {
    const items = await runAppTrigger(todoist, 'getActiveTasks', call({ filter: ' today & p1 ', projectId: 'p2' }));
    expect(items.map((item) => item.id)).toEqual(['6Xa']);
    expect(vendor.calls('GET /tasks/filter').at(-1)?.query).toEqual({ query: 'today & p1', limit: '200' });
  });

  it('hands each completion of the last week, newest first, a recurring task once per completion', async () => {
    const items = await runAppTrigger(todoist, 'newCompletedTask', call({ projectId: 'p1' }));
    expect(items.map((item) => item.id)).toEqual(['t1:2025-01-08T08:00:00Z', 't1:2025-01-01T08:00:00Z']);
    const query = vendor.calls('GET /tasks/completed/by_completion_date').at(-1)?.query ?? {};
    expect(Date.parse(query.until ?? '') - Date.parse(query.since ?? '')).toBe(7 * 24 * 60 * 60 * 1000);
    expect(query.project_id).toBe('p1');
  });
});

describe('todoist: dynamic data', () => {
  it('collects every page of projects', async () => {
    const projects = await loadAppDynamicData(todoist, 'listProjects', call());
    expect(projects.map((project) => project.value)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(
      vendor
        .calls('GET /projects')
        .slice(-3)
        .map((req) => req.query.cursor),
    ).toEqual([undefined, '2', '4']);
  });

  it("lists a project's sections, none without a project, and labels by name", async () => {
    expect(await loadAppDynamicData(todoist, 'listSections', call({ projectId: 'p1' }))).toEqual([
      { name: 'Backlog of p1', value: 's1' },
    ]);
    expect(await loadAppDynamicData(todoist, 'listSections', call())).toEqual([]);
    expect(await loadAppDynamicData(todoist, 'listLabels', call())).toEqual([{ name: 'work', value: 'work' }]);
  });
});
