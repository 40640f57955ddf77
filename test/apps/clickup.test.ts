import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  loadAppDynamicFields,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { clickup } from '../../adapters/apps/clickup/index.js';
import { WebhookRefusedError } from '../../adapters/apps/sdk/index.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { consentUrl, stepArguments } from './support/app-steps.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

const CLIENT = { clientId: 'clickup-client', clientSecret: 'clickup-secret' };
const AUTH = { accessToken: 'clickup-token', tokenType: 'Bearer' };
const HOOK = { id: 'wh-1', secret: 'whsec-clickup' };

const TASKS = Array.from({ length: 5 }, (_, i) => ({ id: `t${i + 1}`, name: `Task ${i + 1}` }));

const startClickUp = () =>
  startFakeVendor({
    authorize: (req) =>
      req.path === '/api/v2/oauth/token' || req.headers.authorization === `Bearer ${AUTH.accessToken}`,
    unauthorized: reply(401, { err: 'Token invalid', ECODE: 'OAUTH_025' }),
    routes: {
      'POST /api/v2/oauth/token': (req) => {
        const form = req.body as Record<string, string>;
        if (form.client_secret !== CLIENT.clientSecret)
          return reply(400, { err: 'Client secret invalid', ECODE: 'OAUTH_011' });
        if (form.code !== 'good-code') return reply(400, { err: 'Code invalid', ECODE: 'OAUTH_014' });
        return { access_token: AUTH.accessToken, token_type: 'Bearer' };
      },
      'GET /user': () => ({ user: { id: 7, username: 'ann', email: 'ann@example.com' } }),
      'GET /team': () => ({ teams: [{ id: '900', name: 'Acme' }] }),
      'GET /team/:id/space': () => ({ spaces: [{ id: 's1', name: 'Engineering' }] }),
      'GET /space/:id/folder': () => ({ folders: [{ id: 'f1', name: 'Sprints' }] }),
      'GET /folder/:id/list': () => ({ lists: [{ id: 'l1', name: 'Sprint 1' }] }),
      'GET /space/:id/list': () => ({ lists: [{ id: 'l9', name: 'Loose list' }] }),
      'GET /list/:id/member': () => ({ members: [{ id: 7, username: 'ann' }] }),
      'GET /list/:id': () => ({ id: 'l1', statuses: [{ status: 'to do' }, { status: 'complete' }] }),
      'GET /space/:id/tag': () => ({ tags: [{ name: 'bug', tag_fg: '#fff', tag_bg: '#f00' }] }),
      'GET /list/:id/task': (req) => {
        const page = Number(req.query.page);
        return { tasks: TASKS.slice(page * 2, page * 2 + 2), last_page: page * 2 + 2 >= TASKS.length };
      },
      'POST /space/:id/folder': (req) => ({ id: 'f9', ...(req.body as object) }),
      'POST /folder/:id/list': (req) => ({ id: 'l8', folder: req.params.id, ...(req.body as object) }),
      'POST /space/:id/list': (req) => ({ id: 'l7', space: req.params.id, ...(req.body as object) }),
      'POST /list/:id/task': (req) => {
        const body = req.body as { status?: string };
        if (body.status === 'nope') return reply(400, { err: 'Status does not exist', ECODE: 'CRTSK_001' });
        return { id: 't9', list: { id: req.params.id }, ...body };
      },
      'GET /task/:id': (req) => ({ id: req.params.id, name: 'Found' }),
      'POST /team/:id/webhook': (req) => ({
        id: HOOK.id,
        webhook: { id: HOOK.id, secret: HOOK.secret, ...(req.body as object) },
      }),
      'DELETE /webhook/:id': () => ({}),
    },
  });

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startClickUp();
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({ auth: AUTH, baseUrl: vendor.url, parameters });
const oauth = (client = CLIENT) => ({ authUrl: vendor.url, baseUrl: vendor.url, oauthClient: client });

describe('clickup: connection', () => {
  it("sends the user to ClickUp's consent page with the client id, redirect and state", () => {
    const url = consentUrl(clickup, CLIENT);
    expect(`${url.origin}${url.pathname}`).toBe('https://app.clickup.com/api');
    expect(url.searchParams.get('client_id')).toBe(CLIENT.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(TEST_REDIRECT_URI);
    expect(url.searchParams.get('state')).toBe('s-1');
  });

  it('exchanges the code and names the user', async () => {
    const check = await verifyAppAuth(clickup, { code: 'good-code', state: 's-1' }, oauth());
    expect(check).toMatchObject({ ok: true, screenName: 'ann @ ann@example.com', credentials: AUTH });
  });

  it("is refused with ClickUp's err, never showing the secret", async () => {
    expect(await verifyAppAuth(clickup, { code: 'old-code' }, oauth())).toEqual({
      ok: false,
      reason: 'Authorization failed: Code invalid',
    });
    const wrong = await verifyAppAuth(clickup, { code: 'good-code' }, oauth({ ...CLIENT, clientSecret: 'not-it' }));
    expect(wrong).toEqual({ ok: false, reason: 'Authorization failed: Client secret invalid' });
    const revoked = await verifyAppAuth(clickup, { accessToken: 'revoked' }, oauth());
    expect(revoked).toEqual({ ok: false, reason: expect.stringContaining('401: Token invalid') });
  });
});

describe("clickup: Automatisch's keys", () => {
  it('keeps the app, client, trigger, action, argument, dynamic data and dynamic fields keys', () => {
    const steps = stepArguments(clickup);
    expect(clickup.key).toBe('clickup');
    expect(clickup.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(steps).toEqual({
      newFolder: ['workspaceId', 'spaceId'],
      newLists: ['workspaceId', 'spaceId', 'folderId'],
      newTasks: ['workspaceId', 'spaceId', 'folderId', 'listId', 'taskId'],
      updatedTask: ['workspaceId', 'spaceId', 'folderId', 'listId', 'whatChanged'],
      createFolder: ['workspaceId', 'spaceId', 'folderName'],
      createList: ['workspaceId', 'spaceId', 'folderId', 'listName', 'listInfo', 'priority', 'dueDate'],
      createTask: [
        'workspaceId',
        'spaceId',
        'folderId',
        'listId',
        'taskName',
        'taskDescription',
        'markdownContent',
        'assigneeIds',
        'taskStatus',
        'tagIds',
        'priority',
        'dueDate',
        'startDate',
      ],
      findTaskById: ['taskId', 'useCustomId', 'includeSubtasks'],
    });
    expect(clickup.manifest.triggers.every((trigger) => trigger.type === 'webhook')).toBe(true);
    expect(Object.keys(clickup.dynamicData).sort()).toEqual([
      'listAssignees',
      'listFolders',
      'listLists',
      'listSpaces',
      'listStatuses',
      'listTags',
      'listTasks',
      'listWorkspaces',
    ]);
    expect(Object.keys(clickup.dynamicFields)).toEqual(['listFieldsWhenUsingCustomId']);
  });
});

describe('clickup: actions', () => {
  it("creates a task from Automatisch's parameters, dates as Unix milliseconds", async () => {
    const task = await runAppAction(
      clickup,
      'createTask',
      call({
        workspaceId: '900',
        spaceId: 's1',
        folderId: 'f1',
        listId: 'l1',
        taskName: 'Fix login',
        taskDescription: '**Now**',
        markdownContent: 'true',
        assigneeIds: [{ assigneeId: '7' }],
        taskStatus: 'to do',
        tagIds: [{ tagId: 'bug' }],
        priority: '2',
        dueDate: '1767225600000',
        startDate: '2026-01-01T00:00:00Z',
      }),
    );
    expect(vendor.calls('POST /list/:id/task').at(-1)?.body).toEqual({
      name: 'Fix login',
      markdown_description: '**Now**',
      assignees: [7],
      status: 'to do',
      tags: ['bug'],
      priority: 2,
      due_date: 1767225600000,
      start_date: 1767225600000,
    });
    expect(task).toMatchObject({ id: 't9', list: { id: 'l1' } });
  });

  it('takes a description as plain text unless it is Markdown, and refuses dates it cannot read', async () => {
    await runAppAction(
      clickup,
      'createTask',
      call({
        workspaceId: '900',
        spaceId: 's1',
        listId: 'l1',
        taskName: 'Plain',
        taskDescription: 'Hi',
        markdownContent: 'false',
      }),
    );
    expect(vendor.calls('POST /list/:id/task').at(-1)?.body).toEqual({ name: 'Plain', description: 'Hi' });
    await expect(
      runAppAction(
        clickup,
        'createTask',
        call({ workspaceId: '900', spaceId: 's1', listId: 'l1', taskName: 'X', dueDate: 'soon' }),
      ),
    ).rejects.toMatchObject({ fields: { dueDate: ['must be Unix milliseconds or an ISO 8601 date.'] } });
  });

  it("fails with ClickUp's err", async () => {
    await expect(
      runAppAction(
        clickup,
        'createTask',
        call({ workspaceId: '900', spaceId: 's1', listId: 'l1', taskName: 'X', taskStatus: 'nope' }),
      ),
    ).rejects.toThrow(/400: Status does not exist/);
  });

  it('creates folders, and lists in a folder or in the space', async () => {
    expect(
      await runAppAction(clickup, 'createFolder', call({ workspaceId: '900', spaceId: 's1', folderName: 'Q3' })),
    ).toEqual({
      id: 'f9',
      name: 'Q3',
    });
    const inFolder = await runAppAction(
      clickup,
      'createList',
      call({
        workspaceId: '900',
        spaceId: 's1',
        folderId: 'f1',
        listName: 'Sprint 2',
        listInfo: 'Two weeks',
        priority: 3,
      }),
    );
    expect(inFolder).toEqual({ id: 'l8', folder: 'f1', name: 'Sprint 2', content: 'Two weeks', priority: 3 });
    const inSpace = await runAppAction(
      clickup,
      'createList',
      call({ workspaceId: '900', spaceId: 's1', listName: 'Ideas' }),
    );
    expect(inSpace).toEqual({ id: 'l7', space: 's1', name: 'Ideas' });
  });

  it('finds a task by id, or by custom id within the workspace of its dynamic field', async () => {
    expect(await runAppAction(clickup, 'findTaskById', call({ taskId: 't1', includeSubtasks: 'true' }))).toEqual({
      id: 't1',
      name: 'Found',
    });
    expect(vendor.calls('GET /task/:id').at(-1)?.query).toEqual({ include_subtasks: 'true' });
    await runAppAction(clickup, 'findTaskById', call({ taskId: 'ENG-12', useCustomId: true, workspaceId: '900' }));
    expect(vendor.calls('GET /task/:id').at(-1)?.query).toEqual({ custom_task_ids: 'true', team_id: '900' });
    expect(
      (await loadAppDynamicFields(clickup, 'listFieldsWhenUsingCustomId', call({ useCustomId: true }))).map(
        (f) => f.key,
      ),
    ).toEqual(['workspaceId']);
    expect(await loadAppDynamicFields(clickup, 'listFieldsWhenUsingCustomId', call({ useCustomId: false }))).toEqual(
      [],
    );
  });

  it("turns ClickUp's rate limit into a retryable failure", async () => {
    const outcome = await rateLimitedOutcome(clickup, vendor, {
      key: 'findTaskById',
      parameters: { taskId: 't1' },
      credentials: AUTH,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

/** A delivery as ClickUp sends it: the body, and its HMAC-SHA256 in hex under the webhook's secret. */
const delivery = (body: object, secret = HOOK.secret) => {
  const rawBody = JSON.stringify(body);
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature': createHmac('sha256', secret).update(rawBody).digest('hex'),
    },
    query: {},
    body,
    rawBody,
  };
};

const inWorkspace = () => call({ workspaceId: '900' });

describe('clickup: webhook triggers', () => {
  it("register a ClickUp webhook for the flow's address on publish, narrowed to what was chosen", async () => {
    const webhookUrl = 'https://conveyor.example/webhooks/flows/f-1';
    const hook = await registerAppHook(clickup, 'updatedTask', {
      ...call({ workspaceId: '900', spaceId: 's1', listId: 'l1', whatChanged: 'taskStatusUpdated' }),
      webhookUrl,
    });
    expect(hook).toEqual(HOOK);
    const sent = vendor.calls('POST /team/:id/webhook').at(-1);
    expect(sent?.path).toBe('/team/900/webhook');
    expect(sent?.body).toEqual({ endpoint: webhookUrl, events: ['taskStatusUpdated'], space_id: 's1', list_id: 'l1' });
    await registerAppHook(clickup, 'newTasks', { ...inWorkspace(), webhookUrl });
    expect(vendor.calls('POST /team/:id/webhook').at(-1)?.body).toEqual({
      endpoint: webhookUrl,
      events: ['taskCreated'],
    });
  });

  it('delete the webhook on unpublish, one ClickUp no longer has included', async () => {
    const webhookUrl = 'https://conveyor.example/webhooks/flows/f-1';
    await unregisterAppHook(clickup, 'newFolder', { ...inWorkspace(), webhookUrl, hook: HOOK });
    expect(vendor.calls('DELETE /webhook/:id').at(-1)?.path).toBe('/webhook/wh-1');
    vendor.route('DELETE /webhook/:id', () => reply(404, { err: 'Webhook not found', ECODE: 'WH_004' }));
    await expect(
      unregisterAppHook(clickup, 'newFolder', { ...inWorkspace(), webhookUrl, hook: HOOK }),
    ).resolves.toBeUndefined();
    vendor.route('DELETE /webhook/:id', () => reply(500, { err: 'Internal error', ECODE: 'X' }));
    await expect(unregisterAppHook(clickup, 'newFolder', { ...inWorkspace(), webhookUrl, hook: HOOK })).rejects.toThrow(
      /500/,
    );
    vendor.route('DELETE /webhook/:id', () => ({}));
  });

  it('hand a signed delivery to the flow, with the change as its id', async () => {
    const body = { event: 'taskCreated', task_id: 't5', webhook_id: HOOK.id, history_items: [{ id: 'h-1' }] };
    const items = await runAppTrigger(clickup, 'newTasks', { ...inWorkspace(), webhook: delivery(body), hook: HOOK });
    expect(items).toEqual([{ id: 'taskCreated:h-1', data: body }]);
    const folder = { event: 'folderCreated', folder_id: 'f2', webhook_id: HOOK.id };
    expect(
      await runAppTrigger(clickup, 'newFolder', { ...inWorkspace(), webhook: delivery(folder), hook: HOOK }),
    ).toEqual([{ id: 'folderCreated:f2', data: folder }]);
  });

  it('refuse a forged delivery, and any without a registered hook', async () => {
    const body = { event: 'taskUpdated', task_id: 't5', history_items: [{ id: 'h-2' }] };
    await expect(
      runAppTrigger(clickup, 'updatedTask', {
        ...inWorkspace(),
        webhook: delivery(body, 'guessed-secret'),
        hook: HOOK,
      }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
    await expect(
      runAppTrigger(clickup, 'updatedTask', { ...inWorkspace(), webhook: delivery(body) }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
  });

  it('show a sample event while the flow is edited', async () => {
    const items = await runAppTrigger(clickup, 'newLists', call({ workspaceId: '900' }));
    expect(items).toEqual([{ data: expect.objectContaining({ event: 'listCreated' }) }]);
  });
});

describe('clickup: dynamic data', () => {
  it('walks the hierarchy: workspaces, spaces, folders, lists, and what a list holds', async () => {
    expect(await loadAppDynamicData(clickup, 'listWorkspaces', call())).toEqual([{ name: 'Acme', value: '900' }]);
    expect(await loadAppDynamicData(clickup, 'listSpaces', call({ workspaceId: '900' }))).toEqual([
      { name: 'Engineering', value: 's1' },
    ]);
    expect(await loadAppDynamicData(clickup, 'listFolders', call({ spaceId: 's1' }))).toEqual([
      { name: 'Sprints', value: 'f1' },
    ]);
    expect(await loadAppDynamicData(clickup, 'listLists', call({ spaceId: 's1', folderId: 'f1' }))).toEqual([
      { name: 'Sprint 1', value: 'l1' },
    ]);
    expect(await loadAppDynamicData(clickup, 'listLists', call({ spaceId: 's1' }))).toEqual([
      { name: 'Loose list', value: 'l9' },
    ]);
    expect(await loadAppDynamicData(clickup, 'listAssignees', call({ listId: 'l1' }))).toEqual([
      { name: 'ann', value: 7 },
    ]);
    expect(await loadAppDynamicData(clickup, 'listStatuses', call({ listId: 'l1' }))).toEqual([
      { name: 'to do', value: 'to do' },
      { name: 'complete', value: 'complete' },
    ]);
    expect(await loadAppDynamicData(clickup, 'listTags', call({ spaceId: 's1' }))).toEqual([
      { name: 'bug', value: 'bug' },
    ]);
    expect(await loadAppDynamicData(clickup, 'listSpaces', call())).toEqual([]);
  });

  it("collects every page of a list's tasks", async () => {
    const tasks = await loadAppDynamicData(clickup, 'listTasks', call({ listId: 'l1' }));
    expect(tasks.map((task) => task.value)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(
      vendor
        .calls('GET /list/:id/task')
        .slice(-3)
        .map((req) => req.query.page),
    ).toEqual(['0', '1', '2']);
  });
});
