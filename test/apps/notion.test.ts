import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  loadAppDynamicFields,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { notion } from '../../adapters/apps/notion/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { consentUrl, stepArguments } from './support/app-steps.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

const CLIENT = { clientId: 'notion-client', clientSecret: 'notion-secret' };
const BASIC = `Basic ${Buffer.from('notion-client:notion-secret').toString('base64')}`;
const TOKEN = 'notion-access-token';
const valid = new Set([TOKEN]);
const AUTH = { accessToken: TOKEN, tokenType: 'bearer' };

const title = (text: string) => [{ type: 'text', plain_text: text, text: { content: text } }];

/** A task database whose title property is "Task", not "Name". */
const DATABASE = {
  object: 'database',
  id: 'db-1',
  title: title('Tasks'),
  properties: {
    Task: { id: 'title', type: 'title', title: {} },
    Done: { id: 'a', type: 'checkbox', checkbox: {} },
    Points: { id: 'b', type: 'number', number: {} },
    Stage: { id: 'c', type: 'select', select: { options: [{ name: 'Todo' }, { name: 'Doing' }] } },
    Tags: { id: 'd', type: 'multi_select', multi_select: { options: [{ name: 'urgent' }, { name: 'later' }] } },
    Owner: { id: 'e', type: 'people', people: {} },
    Created: { id: 'f', type: 'created_time', created_time: {} },
  },
};

const item = (id: string, name: string, edited: string) => ({
  object: 'page',
  id,
  last_edited_time: edited,
  properties: { Task: { id: 'title', type: 'title', title: title(name) } },
});
const ITEMS = [
  item('i1', 'First', '2025-01-01T00:00:00.000Z'),
  item('i2', 'Second', '2025-01-02T00:00:00.000Z'),
  item('i3', 'Third', '2025-01-03T00:00:00.000Z'),
];

/** Notion's POST lists: `start_cursor` and `page_size` in the body, `{ results, has_more, next_cursor }`. */
const page = (req: FakeRequest, all: readonly unknown[], size = 2) => {
  const start = Number((req.body as { start_cursor?: string }).start_cursor ?? 0);
  const more = start + size < all.length;
  return {
    object: 'list',
    results: all.slice(start, start + size),
    has_more: more,
    next_cursor: more ? String(start + size) : null,
  };
};

const startNotion = () =>
  startFakeVendor({
    authorize: (req) =>
      req.path === '/v1/oauth/token' ||
      (valid.has(req.headers.authorization?.replace(/^Bearer /, '') ?? '') &&
        req.headers['notion-version'] === '2022-06-28'),
    unauthorized: reply(401, { object: 'error', status: 401, code: 'unauthorized', message: 'API token is invalid.' }),
    routes: {
      'POST /v1/oauth/token': (req) => {
        if (req.headers.authorization !== BASIC || !req.headers['content-type']?.startsWith('application/json')) {
          return reply(401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
        }
        const grant = req.body as Record<string, string>;
        if (grant.grant_type === 'authorization_code' && grant.code === 'good-code') {
          return {
            access_token: TOKEN,
            refresh_token: 'notion-refresh',
            token_type: 'bearer',
            bot_id: 'bot-1',
            workspace_name: 'Acme',
          };
        }
        if (grant.grant_type === 'refresh_token' && grant.refresh_token === 'notion-refresh') {
          valid.add('notion-access-2');
          return { access_token: 'notion-access-2', refresh_token: 'notion-refresh-2', token_type: 'bearer' };
        }
        return reply(400, { error: 'invalid_grant', error_description: 'Invalid code.' });
      },
      'GET /users/me': () => ({
        object: 'user',
        id: 'bot-1',
        type: 'bot',
        name: 'Conveyor',
        bot: { owner: { type: 'user', user: { object: 'user', id: 'u1', name: 'Ann Lee' } }, workspace_name: 'Acme' },
      }),
      'POST /search': (req) => {
        const wanted = (req.body as { filter: { value: string } }).filter.value;
        return wanted === 'database'
          ? page(req, [
              DATABASE,
              { object: 'database', id: 'db-2', title: [] },
              { object: 'database', id: 'db-3', title: title('Notes') },
            ])
          : page(req, [
              {
                object: 'page',
                id: 'p1',
                parent: { type: 'workspace', workspace: true },
                properties: { title: { type: 'title', title: title('Home') } },
              },
              {
                object: 'page',
                id: 'p2',
                parent: { type: 'page_id', page_id: 'p1' },
                properties: { title: { type: 'title', title: title('Child') } },
              },
            ]);
      },
      'GET /databases/:id': (req) =>
        req.params.id === 'db-1'
          ? DATABASE
          : reply(404, {
              object: 'error',
              status: 404,
              code: 'object_not_found',
              message: `Could not find database with ID: ${req.params.id}.`,
            }),
      'POST /databases/:id/query': (req) => {
        const body = req.body as { filter?: { title?: { equals?: string } }; sorts?: { timestamp: string }[] };
        if (body.filter)
          return {
            results: ITEMS.filter((entry) => entry.properties.Task.title[0]?.plain_text === body.filter?.title?.equals),
            has_more: false,
          };
        if (body.sorts) return { results: [...ITEMS].reverse(), has_more: false, next_cursor: null };
        return page(req, ITEMS);
      },
      'POST /pages': (req) => ({ object: 'page', id: 'new-page', ...(req.body as object) }),
      'PATCH /pages/:id': (req) => ({ object: 'page', id: req.params.id, ...(req.body as object) }),
      'GET /blocks/:id/children': (req) =>
        req.params.id === 'i1'
          ? { results: [{ object: 'block', id: 'b1', type: 'heading_2' }], has_more: true }
          : { results: [{ object: 'block', id: 'b2', type: 'image' }], has_more: false },
      'PATCH /blocks/:id': (req) => ({ object: 'block', id: req.params.id, ...(req.body as object) }),
      'PATCH /blocks/:id/children': (req) => ({
        object: 'list',
        results: (req.body as { children: unknown[] }).children,
      }),
    },
  });

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startNotion();
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({ auth: AUTH, baseUrl: vendor.url, parameters });

const oauth = (client = CLIENT) => ({ authUrl: vendor.url, baseUrl: vendor.url, oauthClient: client });

describe('notion: connection', () => {
  it("sends the user to Notion's consent page for a user-owned integration", () => {
    const url = consentUrl(notion, CLIENT);
    expect(`${url.origin}${url.pathname}`).toBe('https://api.notion.com/v1/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT.clientId,
      redirect_uri: TEST_REDIRECT_URI,
      state: 's-1',
      response_type: 'code',
      owner: 'user',
    });
  });

  it('exchanges the code with Basic client credentials and a JSON body, and names user and workspace', async () => {
    const check = await verifyAppAuth(notion, { code: 'good-code', state: 's-1' }, oauth());
    expect(check).toMatchObject({
      ok: true,
      screenName: 'Ann Lee @ Acme',
      credentials: { accessToken: TOKEN, refreshToken: 'notion-refresh', tokenType: 'bearer' },
    });
    expect(vendor.calls('POST /v1/oauth/token').at(-1)?.body).toEqual({
      grant_type: 'authorization_code',
      code: 'good-code',
      redirect_uri: TEST_REDIRECT_URI,
    });
  });

  it("is refused with Notion's reason, never showing the secret", async () => {
    expect(await verifyAppAuth(notion, { code: 'old-code' }, oauth())).toEqual({
      ok: false,
      reason: 'Authorization failed: Invalid code.',
    });
    const wrong = await verifyAppAuth(notion, { code: 'good-code' }, oauth({ ...CLIENT, clientSecret: 'not-it' }));
    expect(wrong).toEqual({ ok: false, reason: 'Authorization failed: Client authentication failed.' });
    expect(JSON.stringify(wrong)).not.toContain('not-it');
  });

  it('refreshes an access token Notion no longer takes, and goes on', async () => {
    const databases = await loadAppDynamicData(notion, 'listDatabases', {
      ...oauth(),
      auth: { accessToken: 'expired', refreshToken: 'notion-refresh' },
    });
    expect(databases).toHaveLength(3);
    expect(vendor.calls('POST /v1/oauth/token').at(-1)?.body).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'notion-refresh',
    });
    expect(vendor.calls('POST /search').at(-1)?.headers.authorization).toBe('Bearer notion-access-2');
  });
});

describe("notion: Automatisch's keys", () => {
  it('keeps the app, client, trigger, action, argument, dynamic data and dynamic fields keys', () => {
    const steps = stepArguments(notion);
    expect(notion.key).toBe('notion');
    expect(notion.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(steps).toEqual({
      newDatabaseItems: ['databaseId'],
      updatedDatabaseItems: ['databaseId'],
      createDatabaseItem: ['databaseId', 'name', 'content', 'tags'],
      createPage: ['parentPageId', 'title', 'content'],
      findDatabaseItem: ['databaseId', 'name'],
      updateDatabaseItem: ['databaseId', 'itemId', 'content'],
    });
    expect(Object.keys(notion.dynamicData).sort()).toEqual([
      'listDatabaseItems',
      'listDatabases',
      'listParentPages',
      'listTags',
    ]);
    expect(Object.keys(notion.dynamicFields)).toEqual(['listDatabaseProperties']);
  });
});

describe('notion: actions', () => {
  it("creates a database item under the database's own title property, with tags and a paragraph", async () => {
    const created = await runAppAction(
      notion,
      'createDatabaseItem',
      call({ databaseId: 'db-1', name: 'Ship', content: 'x'.repeat(2100), tags: ['urgent'] }),
    );
    const body = vendor.calls('POST /pages').at(-1)?.body as {
      properties: object;
      children: { paragraph: { rich_text: { text: { content: string } }[] } }[];
    };
    expect(body).toMatchObject({
      parent: { database_id: 'db-1' },
      properties: {
        Task: { title: [{ type: 'text', text: { content: 'Ship' } }] },
        Tags: { multi_select: [{ name: 'urgent' }] },
      },
    });
    expect(body.children[0]?.paragraph.rich_text[0]?.text.content).toHaveLength(2000);
    expect(created).toMatchObject({ object: 'page', id: 'new-page' });
  });

  it('creates a page in a parent page', async () => {
    await runAppAction(notion, 'createPage', call({ parentPageId: 'p1', title: 'Notes' }));
    expect(vendor.calls('POST /pages').at(-1)?.body).toEqual({
      parent: { page_id: 'p1' },
      properties: { title: { title: [{ type: 'text', text: { content: 'Notes' } }] } },
      children: [],
    });
  });

  it("fails with Notion's message", async () => {
    await expect(
      runAppAction(notion, 'createDatabaseItem', call({ databaseId: 'db-gone', name: 'X' })),
    ).rejects.toThrow(/404: Could not find database with ID: db-gone\./);
  });

  it('finds an item by its title, or answers null', async () => {
    expect(await runAppAction(notion, 'findDatabaseItem', call({ databaseId: 'db-1', name: 'Second' }))).toMatchObject({
      id: 'i2',
    });
    expect(vendor.calls('POST /databases/:id/query').at(-1)?.body).toEqual({
      filter: { property: 'Task', title: { equals: 'Second' } },
      sorts: [{ timestamp: 'last_edited_time', direction: 'descending' }],
      page_size: 1,
    });
    expect(await runAppAction(notion, 'findDatabaseItem', call({ databaseId: 'db-1', name: 'None' }))).toBeNull();
  });

  it("offers the database's writable properties as fields, and writes them by type", async () => {
    const fields = await loadAppDynamicFields(notion, 'listDatabaseProperties', call({ databaseId: 'db-1' }));
    expect(fields.map((field) => field.key)).toEqual([
      'property_Task',
      'property_Done',
      'property_Points',
      'property_Stage',
      'property_Tags',
      'property_Owner',
    ]);
    expect(fields.find((field) => field.key === 'property_Stage')?.options).toEqual([
      { label: 'Todo', value: 'Todo' },
      { label: 'Doing', value: 'Doing' },
    ]);
    const updated = await runAppAction(
      notion,
      'updateDatabaseItem',
      call({
        databaseId: 'db-1',
        itemId: 'i2',
        property_Task: 'Renamed',
        property_Done: 'true',
        property_Points: '3',
        property_Stage: 'Doing',
        property_Tags: [{ option: 'urgent' }, { option: '' }, 'later'],
        property_Owner: '["u1"]',
        property_Created: 'ignored',
      }),
    );
    expect(vendor.calls('PATCH /pages/:id').at(-1)?.body).toEqual({
      properties: {
        Task: { title: [{ type: 'text', text: { content: 'Renamed' } }] },
        Done: { checkbox: true },
        Points: { number: 3 },
        Stage: { select: { name: 'Doing' } },
        Tags: { multi_select: [{ name: 'urgent' }, { name: 'later' }] },
        Owner: { people: [{ object: 'user', id: 'u1' }] },
      },
    });
    expect(updated).toMatchObject({ id: 'i2' });
  });

  it('refuses property values that do not fit, naming the field', async () => {
    await expect(
      runAppAction(
        notion,
        'updateDatabaseItem',
        call({ databaseId: 'db-1', itemId: 'i2', property_Points: 'many', property_Stage: 'Gone' }),
      ),
    ).rejects.toMatchObject({
      fields: { property_Points: ['must be a number.'], property_Stage: ['must be one of: Todo, Doing.'] },
    });
  });

  it('rewrites a first heading with the content, or appends a paragraph after other blocks', async () => {
    await runAppAction(notion, 'updateDatabaseItem', call({ databaseId: 'db-1', itemId: 'i1', content: 'Summary' }));
    expect(vendor.calls('PATCH /blocks/:id').at(-1)?.body).toEqual({
      heading_2: { rich_text: [{ type: 'text', text: { content: 'Summary' } }] },
    });
    await runAppAction(notion, 'updateDatabaseItem', call({ databaseId: 'db-1', itemId: 'i3', content: 'More' }));
    const appended = vendor.calls('PATCH /blocks/:id/children').at(-1);
    expect(appended?.path).toBe('/blocks/i3/children');
    expect(appended?.body).toEqual({
      children: [
        { object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'More' } }] } },
      ],
    });
  });

  it("turns Notion's rate limit into a retryable failure", async () => {
    const outcome = await rateLimitedOutcome(notion, vendor, {
      key: 'createPage',
      parameters: { parentPageId: 'p1' },
      credentials: AUTH,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('notion: polling triggers', () => {
  it('hand the newest items first, asking Notion to sort by creation', async () => {
    const items = await runAppTrigger(notion, 'newDatabaseItems', call({ databaseId: 'db-1' }));
    expect(items.map((entry) => entry.id)).toEqual(['i3', 'i2', 'i1']);
    expect(vendor.calls('POST /databases/:id/query').at(-1)?.body).toEqual({
      sorts: [{ timestamp: 'created_time', direction: 'descending' }],
      page_size: 100,
    });
  });

  it('hand each edit of an item, its id carrying the edit time as in Automatisch', async () => {
    const items = await runAppTrigger(notion, 'updatedDatabaseItems', call({ databaseId: 'db-1' }));
    expect(items[0]?.id).toBe('i3-2025-01-03T00:00:00.000Z');
  });
});

describe('notion: dynamic data', () => {
  it('collects every page of databases shared with the integration', async () => {
    expect(await loadAppDynamicData(notion, 'listDatabases', call())).toEqual([
      { name: 'Tasks', value: 'db-1' },
      { name: 'Untitled database', value: 'db-2' },
      { name: 'Notes', value: 'db-3' },
    ]);
    expect(
      vendor
        .calls('POST /search')
        .slice(-2)
        .map((req) => req.body),
    ).toEqual([
      { filter: { property: 'object', value: 'database' }, page_size: 100 },
      { filter: { property: 'object', value: 'database' }, page_size: 100, start_cursor: '2' },
    ]);
  });

  it("lists top-level pages, a database's items by title, and its tags", async () => {
    expect(await loadAppDynamicData(notion, 'listParentPages', call())).toEqual([{ name: 'Home', value: 'p1' }]);
    expect(await loadAppDynamicData(notion, 'listDatabaseItems', call({ databaseId: 'db-1' }))).toEqual([
      { name: 'First', value: 'i1' },
      { name: 'Second', value: 'i2' },
      { name: 'Third', value: 'i3' },
    ]);
    expect(await loadAppDynamicData(notion, 'listTags', call({ databaseId: 'db-1' }))).toEqual([
      { name: 'urgent', value: 'urgent' },
      { name: 'later', value: 'later' },
    ]);
    expect(await loadAppDynamicData(notion, 'listDatabaseItems', call())).toEqual([]);
  });
});
