import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { monday } from '../../adapters/apps/monday/index.js';
import {
  createMemoryStore,
  type Store,
  TemporaryError,
  WebhookRefusedError,
  WebhookReplyRequested,
} from '../../adapters/apps/sdk/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { stepArguments } from './support/app-steps.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

const AUTH = { apiToken: 'tok-monday' };

/** 130 boards (and a subitems board, which is not one), so that the list takes two pages of 100. */
const BOARDS = [
  ...Array.from({ length: 130 }, (_, i) => ({ id: String(1000 + i), name: `Board ${i + 1}`, type: 'board' })),
  { id: '9999', name: 'Subitems of Board 1', type: 'sub_items_board' },
];

type Operation = { query: string; variables: Record<string, unknown> };

/** monday's GraphQL endpoint: answers by the operation the query names, errors with status 200. */
const answer = (req: FakeRequest) => {
  const { query, variables } = req.body as Operation;
  const field = /\{\s*(\w+)/.exec(query.replace(/^[^{]*/, ''))?.[1];
  switch (field) {
    case 'me':
      return { data: { me: { name: 'Ann Lee', email: 'ann@example.com' } }, account_id: 1 };
    case 'boards': {
      if (query.includes('items_page')) {
        return {
          data: {
            boards: [
              {
                items_page: {
                  items: [
                    { id: '503', name: 'Newest' },
                    { id: '501', name: 'Older' },
                  ],
                },
              },
            ],
          },
        };
      }
      if (query.includes('groups')) {
        return {
          data: {
            boards: [
              {
                groups: [
                  { id: 'topics', title: 'Topics' },
                  { id: 'done', title: 'Done' },
                ],
              },
            ],
          },
        };
      }
      if (variables.page !== undefined) {
        const { limit, page } = variables as { limit: number; page: number };
        return { data: { boards: BOARDS.slice((page - 1) * limit, page * limit) } };
      }
      return { data: { boards: [BOARDS[130], BOARDS[1], BOARDS[0]] } };
    }
    case 'users':
      return {
        data: {
          users: [
            { id: '22', name: 'Bo' },
            { id: '21', name: 'Al' },
          ],
        },
      };
    case 'create_board':
      return { data: { create_board: { id: '77', name: variables.name, board_kind: variables.kind } } };
    case 'create_column':
      if (variables.title === 'Taken') {
        return {
          data: { create_column: null },
          errors: [
            {
              message: 'Column title already exists',
              extensions: { code: 'ColumnTitleTaken', status_code: 400 },
            },
          ],
        };
      }
      return { data: { create_column: { id: 'text_1', title: variables.title, type: variables.type } } };
    case 'create_item':
      return {
        data: { create_item: { id: '600', name: variables.name, group: { id: 'topics' }, board: { id: '1000' } } },
      };
    case 'create_subitem':
      return { data: { create_subitem: { id: `6${String(variables.name).length}`, name: variables.name } } };
    case 'create_webhook':
      return challenge(String(variables.url)).then((answered) =>
        answered
          ? { data: { create_webhook: { id: 4242, board_id: variables.board } } }
          : { errors: [{ message: 'Webhook URL did not answer the challenge' }] },
      );
    case 'delete_webhook':
      return { data: { delete_webhook: { id: variables.id } } };
    case 'create_update':
      if (variables.item === 'busy') {
        return {
          errors: [
            {
              message: 'Complexity budget exhausted',
              extensions: { code: 'COMPLEXITY_BUDGET_EXHAUSTED', retry_in_seconds: 12, status_code: 429 },
            },
          ],
        };
      }
      return { data: { create_update: { id: '900', body: variables.body, item_id: variables.item } } };
    default:
      return reply(400, { errors: [{ message: `Unknown field ${field}` }] });
  }
};

/** The flow's store, which monday's challenge during a registration and the registration share. */
let flowStore: Store = createMemoryStore();

/** monday checks a new webhook's address: it posts a challenge there and wants it back. */
const challenge = async (url: string) => {
  const address = new URL(url);
  const answer = await runAppTrigger(monday, 'newBoardEvent', {
    ...call({ boardId: '1000' }),
    store: flowStore,
    webhook: {
      method: 'POST',
      headers: {},
      query: Object.fromEntries(address.searchParams),
      body: { challenge: 'c-123' },
      rawBody: '{"challenge":"c-123"}',
    },
  }).catch((error: unknown) => error);
  return answer instanceof WebhookReplyRequested && (answer.reply.body as { challenge?: string }).challenge === 'c-123';
};

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === AUTH.apiToken,
    unauthorized: reply(401, { errors: [{ message: 'Not Authenticated', extensions: { code: 'UNAUTHENTICATED' } }] }),
    routes: { 'POST /': answer },
  });
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({ auth: AUTH, baseUrl: vendor.url, parameters });
const sent = (index = -1) => vendor.calls('POST /').at(index)?.body as Operation;

describe('monday: connection', () => {
  it('sends the token as it is, with the pinned API version, and names the user', async () => {
    expect(await verifyAppAuth(monday, AUTH, { baseUrl: vendor.url })).toMatchObject({
      ok: true,
      screenName: 'Ann Lee @ ann@example.com',
    });
    expect(vendor.calls('POST /').at(-1)?.headers['api-version']).toBe('2025-04');
  });

  it("is refused with monday's words, never showing the token", async () => {
    const refused = await verifyAppAuth(monday, { apiToken: 'wrong-token' }, { baseUrl: vendor.url });
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining('401: Not Authenticated') });
    expect(JSON.stringify(refused)).not.toContain('wrong-token');
  });
});

describe("monday: Automatisch's keys", () => {
  it('keeps the app, connection, trigger, action, argument and dynamic data keys', () => {
    const steps = stepArguments(monday);
    expect(monday.key).toBe('monday');
    expect(monday.manifest.auth.fields.map((field) => field.key)).toEqual(['apiToken']);
    expect(steps).toMatchObject({
      newBoard: [],
      newUsers: [],
      createBoard: ['boardName', 'boardKind', 'templateId'],
      createColumn: ['boardId', 'columnTitle', 'columnType'],
      createItem: expect.arrayContaining(['boardId', 'groupId', 'itemName', 'subitemNames']),
    });
    expect(Object.keys(monday.dynamicData).sort()).toEqual(['listBoards', 'listGroups']);
  });
});

describe('monday: actions', () => {
  it('creates a board with its values as variables, never in the query', async () => {
    const board = await runAppAction(monday, 'createBoard', call({ boardName: 'Q3 "launch"', boardKind: 'private' }));
    expect(board).toEqual({ id: '77', name: 'Q3 "launch"', board_kind: 'private' });
    expect(sent().variables).toEqual({ name: 'Q3 "launch"', kind: 'private', template: null });
    expect(sent().query).not.toContain('launch');
  });

  it("fails with monday's message when it answers errors with status 200", async () => {
    await expect(
      runAppAction(monday, 'createColumn', call({ boardId: '1000', columnTitle: 'Taken', columnType: 'text' })),
    ).rejects.toThrow('monday.com: Column title already exists');
    const column = await runAppAction(
      monday,
      'createColumn',
      call({ boardId: '1000', columnTitle: 'Notes', columnType: 'long_text' }),
    );
    expect(column).toEqual({ id: 'text_1', title: 'Notes', type: 'long_text' });
  });

  it("creates an item with column values, then its subitems, from Automatisch's rows too", async () => {
    const before = vendor.calls('POST /').length;
    const item = await runAppAction(
      monday,
      'createItem',
      call({
        boardId: '1000',
        groupId: 'topics',
        itemName: 'Launch',
        subitemNames: [{ subitemName: 'Draft' }, { subitemName: '' }, { subitemName: 'Review' }],
        columnValues: '{"status": {"label": "Working on it"}}',
      }),
    );
    const operations = vendor
      .calls('POST /')
      .slice(before)
      .map((req) => (req.body as Operation).variables);
    expect(operations).toEqual([
      { board: '1000', group: 'topics', name: 'Launch', values: '{"status":{"label":"Working on it"}}' },
      { parent: '600', name: 'Draft' },
      { parent: '600', name: 'Review' },
    ]);
    expect(item).toMatchObject({ id: '600', name: 'Launch', subitems: [{ name: 'Draft' }, { name: 'Review' }] });
    await runAppAction(monday, 'createItem', call({ boardId: '1000', itemName: 'Bare', subitemNames: '["One"]' }));
    expect(sent(-2).variables).toEqual({ board: '1000', group: null, name: 'Bare', values: null });
  });

  it('refuses column values that are not an object', async () => {
    await expect(
      runAppAction(monday, 'createItem', call({ boardId: '1000', itemName: 'X', columnValues: '[1]' })),
    ).rejects.toMatchObject({ fields: { columnValues: ['must be an object of column ids to values.'] } });
  });

  it('posts an update on an item', async () => {
    const update = await runAppAction(monday, 'createUpdate', call({ itemId: '600', body: 'Shipped' }));
    expect(update).toEqual({ id: '900', body: 'Shipped', item_id: '600' });
  });

  it('takes a spent complexity budget for a failure that passes, after the time monday gives', async () => {
    const error = await runAppAction(monday, 'createUpdate', call({ itemId: 'busy', body: 'Hi' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TemporaryError);
    expect(error).toMatchObject({ message: 'monday.com: Complexity budget exhausted', retryAfterSeconds: 12 });
  });

  it("turns monday's 429 into a retryable failure", async () => {
    const outcome = await rateLimitedOutcome(monday, vendor, {
      key: 'createUpdate',
      parameters: { itemId: '600', body: 'Hi' },
      credentials: AUTH,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('monday: polling triggers', () => {
  it('hands new boards newest first, without subitem boards', async () => {
    const items = await runAppTrigger(monday, 'newBoard', call());
    expect(items.map((item) => item.id)).toEqual(['1001', '1000']);
    expect(sent().query).toContain('order_by: created_at');
  });

  it('hands new users newest first', async () => {
    const items = await runAppTrigger(monday, 'newUsers', call());
    expect(items.map((item) => item.id)).toEqual(['22', '21']);
    expect(sent().query).toContain('newest_first: true');
  });

  it("hands a board's new items, ordered by their creation log", async () => {
    const items = await runAppTrigger(monday, 'newItem', call({ boardId: '1000' }));
    expect(items.map((item) => item.id)).toEqual(['503', '501']);
    expect(sent().variables).toEqual({ board: ['1000'] });
    expect(sent().query).toContain('"__creation_log__", direction: desc');
  });
});

describe('monday: dynamic data', () => {
  it('collects every page of boards, boards only', async () => {
    const boards = await loadAppDynamicData(monday, 'listBoards', call());
    expect(boards).toHaveLength(130);
    expect(boards.at(-1)).toEqual({ name: 'Board 130', value: '1129' });
    const pages = vendor
      .calls('POST /')
      .slice(-2)
      .map((req) => (req.body as Operation).variables);
    expect(pages).toEqual([
      { limit: 100, page: 1 },
      { limit: 100, page: 2 },
    ]);
  });

  it("lists a board's groups, and none before a board is chosen", async () => {
    expect(await loadAppDynamicData(monday, 'listGroups', call({ boardId: '1000' }))).toEqual([
      { name: 'Topics', value: 'topics' },
      { name: 'Done', value: 'done' },
    ]);
    expect(await loadAppDynamicData(monday, 'listGroups', call())).toEqual([]);
  });
});

const WEBHOOK_URL = 'https://conveyor.example/webhooks/flows/f-1';
const delivery = (token: string | undefined, body: object) => ({
  method: 'POST',
  headers: {},
  query: (token === undefined ? {} : { token }) as Record<string, string>,
  body,
  rawBody: JSON.stringify(body),
});

describe('monday: instant trigger', () => {
  it("creates a board webhook for the flow's address with a token of its own, answering monday's challenge", async () => {
    flowStore = createMemoryStore();
    const hook = (await registerAppHook(monday, 'newBoardEvent', {
      ...call({ boardId: '1000', event: 'change_status_column_value' }),
      store: flowStore,
      webhookUrl: WEBHOOK_URL,
    })) as { id: string; token: string };
    expect(hook).toEqual({ id: '4242', token: expect.stringMatching(/^[\w-]{32}$/) });
    const { variables } = sent();
    expect(variables).toMatchObject({ board: '1000', event: 'change_status_column_value' });
    expect(String(variables.url)).toBe(`${WEBHOOK_URL}?token=${hook.token}`);
    expect(await flowStore.get('monday:pendingToken')).toBeNull();
  });

  it('hands an event that brings the token back, and refuses one that does not', async () => {
    const hook = { id: '4242', token: 'the-flow-token' };
    const event = { type: 'create_pulse', triggerUuid: 'uuid-1', boardId: 1000, pulseId: 77, pulseName: 'Launch' };
    expect(
      await runAppTrigger(monday, 'newBoardEvent', {
        ...call({ boardId: '1000' }),
        webhook: delivery(hook.token, { event }),
        hook,
      }),
    ).toEqual([{ id: 'uuid-1', data: event }]);
    for (const token of ['guessed-token', undefined]) {
      await expect(
        runAppTrigger(monday, 'newBoardEvent', {
          ...call({ boardId: '1000' }),
          webhook: delivery(token, { event }),
          hook,
        }),
      ).rejects.toBeInstanceOf(WebhookRefusedError);
    }
  });

  it('deletes the webhook on unpublish', async () => {
    await unregisterAppHook(monday, 'newBoardEvent', {
      ...call({ boardId: '1000' }),
      webhookUrl: WEBHOOK_URL,
      hook: { id: '4242', token: 't' },
    });
    expect(sent().variables).toEqual({ id: '4242' });
    expect(sent().query).toContain('delete_webhook');
  });
});
