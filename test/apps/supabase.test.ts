import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  runAppAction,
  runAppActionOutcome,
  runAppTrigger,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { supabase } from '../../adapters/apps/supabase/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const SECRET_KEY = 'sb_secret_abc123';
const LEGACY_KEY = 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.c2lnbmF0dXJl';

type Row = Record<string, unknown>;
let todos: Row[];

/** PostgREST's error shape. */
const pgError = (status: number, code: string, message: string) =>
  reply(status, { code, details: null, hint: null, message });

const RESERVED = new Set(['select', 'order', 'limit', 'on_conflict']);

/** The rows the request's `column=eq.value` filters keep. */
const matching = (req: FakeRequest) =>
  todos.filter((row) =>
    Object.entries(req.query).every(
      ([key, filter]) => RESERVED.has(key) || (filter.startsWith('eq.') && String(row[key]) === filter.slice(3)),
    ),
  );

const returning = (req: FakeRequest, status: number, rows: Row[]) =>
  req.headers.prefer?.includes('return=representation') ? reply(status, rows) : reply(204);

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    // The gateway: a secret key only in `apikey`; a legacy key there and as the bearer token.
    authorize: (req) =>
      (req.headers.apikey === SECRET_KEY && req.headers.authorization === undefined) ||
      (req.headers.apikey === LEGACY_KEY && req.headers.authorization === `Bearer ${LEGACY_KEY}`),
    unauthorized: reply(401, {
      message: 'Invalid API key',
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
    }),
    routes: {
      'GET /rest/v1/': () => ({
        swagger: '2.0',
        paths: { '/': {}, '/todos': {}, '/notes': {}, '/rpc/archive': {} },
        definitions: {
          todos: {
            properties: {
              id: { format: 'bigint' },
              title: { format: 'text' },
              updated_at: { format: 'timestamp with time zone' },
            },
          },
        },
      }),
      'GET /rest/v1/todos': (req) => {
        const [orderColumn = 'id', direction] = (req.query.order ?? '').split('.');
        const rows = [...matching(req)].sort((a, b) => String(a[orderColumn]).localeCompare(String(b[orderColumn])));
        if (direction === 'desc') rows.reverse();
        return rows.slice(0, Number(req.query.limit ?? 1000));
      },
      'GET /rest/v1/missing': () =>
        pgError(404, 'PGRST205', "Could not find the table 'public.missing' in the schema cache"),
      'POST /rest/v1/todos': (req) => {
        const row = req.body as Row;
        if ('nope' in row)
          return pgError(400, 'PGRST204', "Could not find the 'nope' column of 'todos' in the schema cache");
        const existing = todos.find(
          (t) => req.query.on_conflict && t[req.query.on_conflict] === row[req.query.on_conflict],
        );
        if (existing && req.headers.prefer?.includes('resolution=merge-duplicates')) {
          Object.assign(existing, row);
          return returning(req, 201, [existing]);
        }
        const created = { id: todos.length + 1, ...row };
        todos.push(created);
        return returning(req, 201, [created]);
      },
      'PATCH /rest/v1/todos': (req) => {
        const rows = matching(req);
        for (const row of rows) Object.assign(row, req.body);
        return returning(req, 200, rows);
      },
      'DELETE /rest/v1/todos': (req) => {
        const rows = matching(req);
        todos = todos.filter((row) => !rows.includes(row));
        return returning(req, 200, rows);
      },
    },
  });
});
afterAll(() => vendor.close());
beforeEach(() => {
  todos = [
    { id: 1, title: 'a', done: 'false', updated_at: '2024-05-01T10:00:00+00:00' },
    { id: 2, title: 'b', done: 'true', updated_at: '2024-05-03T10:00:00+00:00' },
    { id: 3, title: 'c', done: 'false', updated_at: '2024-05-02T10:00:00+00:00' },
  ];
});

const auth = (serviceRoleKey = SECRET_KEY) => ({ projectUrl: `${vendor.url}/`, serviceRoleKey });
const call = (parameters: Record<string, unknown> = {}) => ({ parameters, auth: auth() });

describe('supabase: connection', () => {
  it('verifies a secret key (apikey only) or a legacy key (apikey and bearer) on the project', async () => {
    const host = new URL(vendor.url).host;
    expect(await verifyAppAuth(supabase, auth())).toMatchObject({ ok: true, screenName: host });
    expect(await verifyAppAuth(supabase, auth(LEGACY_KEY))).toMatchObject({ ok: true, screenName: host });
    expect(vendor.calls('GET /rest/v1/').at(-1)?.headers.authorization).toBe(`Bearer ${LEGACY_KEY}`);
  });

  it("refuses a wrong key with the gateway's message", async () => {
    expect(await verifyAppAuth(supabase, auth('sb_secret_wrong'))).toEqual({
      ok: false,
      reason: `GET ${vendor.url}/rest/v1/ answered 401: Invalid API key`,
    });
  });
});

describe('supabase: actions', () => {
  it('creates a row and returns it as stored', async () => {
    const output = await runAppAction(
      supabase,
      'createRow',
      call({ table: 'todos', values: [{ key: 'title', value: 'd' }] }),
    );
    expect(output).toEqual({ id: 4, title: 'd' });
    const sent = vendor.calls('POST /rest/v1/todos').at(-1);
    expect(sent?.body).toEqual({ title: 'd' });
    expect(sent?.headers.prefer).toBe('return=representation');
  });

  it('creates or updates a row by its unique columns', async () => {
    const output = await runAppAction(
      supabase,
      'upsertRow',
      call({
        table: 'todos',
        onConflict: 'title',
        values: [
          { key: 'title', value: 'b' },
          { key: 'done', value: 'false' },
        ],
      }),
    );
    expect(output).toMatchObject({ id: 2, title: 'b', done: 'false' });
    const sent = vendor.calls('POST /rest/v1/todos').at(-1);
    expect(sent?.query).toEqual({ on_conflict: 'title' });
    expect(sent?.headers.prefer).toBe('return=representation,resolution=merge-duplicates');
  });

  it('updates and deletes the rows that match, answering them and their count', async () => {
    const updated = await runAppAction(
      supabase,
      'updateRows',
      call({ table: 'todos', values: [{ key: 'done', value: 'true' }], where: [{ key: 'done', value: 'false' }] }),
    );
    expect(updated).toMatchObject({
      count: 2,
      rows: [
        { id: 1, done: 'true' },
        { id: 3, done: 'true' },
      ],
    });
    expect(vendor.calls('PATCH /rest/v1/todos').at(-1)?.query).toEqual({ done: 'eq.false' });
    const deleted = await runAppAction(
      supabase,
      'deleteRows',
      call({ table: 'todos', where: [{ key: 'id', value: '2' }] }),
    );
    expect(deleted).toEqual({ count: 1, rows: [expect.objectContaining({ id: 2 })] });
    expect(todos.map((row) => row.id)).toEqual([1, 3]);
  });

  it('refuses a write to every row', async () => {
    await expect(runAppAction(supabase, 'deleteRows', call({ table: 'todos' }))).rejects.toThrow(/where/);
  });

  it('finds rows with filters, an order and a limit', async () => {
    const output = await runAppAction(
      supabase,
      'findRows',
      call({ table: 'todos', where: [{ key: 'done', value: 'false' }], orderBy: 'id', limit: 1 }),
    );
    expect(output).toEqual({ count: 1, rows: [expect.objectContaining({ id: 3 })] });
    expect(vendor.calls('GET /rest/v1/todos').at(-1)?.query).toEqual({
      select: '*',
      done: 'eq.false',
      order: 'id.desc',
      limit: '1',
    });
  });

  it("surfaces PostgREST's message", async () => {
    await expect(runAppAction(supabase, 'findRows', call({ table: 'missing' }))).rejects.toThrow(
      /answered 404: Could not find the table 'public\.missing' in the schema cache/,
    );
    await expect(
      runAppAction(supabase, 'createRow', call({ table: 'todos', values: [{ key: 'nope', value: '1' }] })),
    ).rejects.toThrow(/Could not find the 'nope' column/);
  });

  it('turns a 429 into a retryable failure', async () => {
    vendor.rateLimit(1);
    const outcome = await runAppActionOutcome(supabase, 'findRows', { parameters: { table: 'todos' }, auth: auth() });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('supabase: triggers and dynamic data', () => {
  it('polls new rows by an increasing column, highest first', async () => {
    const items = await runAppTrigger(supabase, 'newRow', call({ table: 'todos', column: 'id' }));
    expect(items.map((item) => item.id)).toEqual(['3', '2', '1']);
    expect(vendor.calls('GET /rest/v1/todos').at(-1)?.query).toEqual({
      select: '*',
      order: 'id.desc.nullslast',
      limit: '100',
    });
  });

  it('polls changed rows by their change time, a new id for each change', async () => {
    const items = await runAppTrigger(supabase, 'updatedRow', call({ table: 'todos', column: 'updated_at' }));
    expect(items.map((item) => item.id)).toEqual([
      '2@2024-05-03T10:00:00+00:00',
      '3@2024-05-02T10:00:00+00:00',
      '1@2024-05-01T10:00:00+00:00',
    ]);
  });

  it('lists the tables and views (not functions), and the columns of a table', async () => {
    expect(await loadAppDynamicData(supabase, 'listTables', call())).toEqual([
      { name: 'notes', value: 'notes' },
      { name: 'todos', value: 'todos' },
    ]);
    expect(await loadAppDynamicData(supabase, 'listColumns', call({ table: 'todos' }))).toEqual([
      { name: 'id (bigint)', value: 'id' },
      { name: 'title (text)', value: 'title' },
      { name: 'updated_at (timestamp with time zone)', value: 'updated_at' },
    ]);
    expect(await loadAppDynamicData(supabase, 'listColumns', call())).toEqual([]);
  });
});
