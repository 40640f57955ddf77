import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  runAppAction,
  runAppActionOutcome,
  runAppTrigger,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { baserow } from '../../adapters/apps/baserow/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const TOKEN = 'db-token-1';

type Row = { id: number } & Record<string, unknown>;
let rows: Row[];

/** Baserow's errors: a code in `error`, the words in `detail`. */
const baserowError = (status: number, error: string, detail: string) => reply(status, { error, detail });

const FIELDS = [
  { id: 1, name: 'Name', type: 'text', primary: true },
  { id: 2, name: 'Stage', type: 'single_select', primary: false },
  { id: 3, name: 'Modified', type: 'last_modified', primary: false },
];

/** `page` from 1 and `size` (100 by default, 200 at most), with `count`, `next` and `previous`. */
const rowPage = (req: FakeRequest, all: readonly Row[], base: string) => {
  const size = Math.min(Number(req.query.size ?? 100), 200);
  const page = Number(req.query.page ?? 1);
  if (page > 1 && (page - 1) * size >= all.length) return baserowError(404, 'ERROR_INVALID_PAGE', 'Invalid page.');
  const next = page * size < all.length ? `${base}${req.path}?page=${page + 1}&size=${size}` : null;
  return { count: all.length, next, previous: null, results: all.slice((page - 1) * size, page * size) };
};

const selected = (req: FakeRequest) => {
  const [, field = 'id'] = /^-?(.*)$/.exec(req.query.order_by ?? 'id') ?? [];
  const sorted = [...rows].sort((a, b) =>
    String(a[field] ?? '').localeCompare(String(b[field] ?? ''), 'en', { numeric: true }),
  );
  if (req.query.order_by?.startsWith('-')) sorted.reverse();
  return sorted.filter(
    (row) =>
      (!req.query.search || Object.values(row).some((v) => String(v).includes(req.query.search ?? ''))) &&
      Object.entries(req.query).every(([key, value]) => {
        const filter = /^filter__(.+)__equal$/.exec(key);
        return !filter?.[1] || String(row[filter[1]]) === value;
      }),
  );
};

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === `Token ${TOKEN}`,
    unauthorized: baserowError(401, 'ERROR_TOKEN_DOES_NOT_EXIST', 'The provided token does not exist.'),
    routes: {
      'GET /api/database/tokens/check/': () => ({ token: 'OK' }),
      'GET /api/database/tables/all-tables/': () => [
        { id: 11, name: 'Leads', order: 1, database_id: 5 },
        { id: 12, name: 'Deals', order: 2, database_id: 5 },
      ],
      'GET /api/database/fields/table/:table/': () => FIELDS,
      'GET /api/database/rows/table/:table/': (req, self) =>
        req.params.table === '11'
          ? rowPage(req, selected(req), self.url)
          : baserowError(404, 'ERROR_TABLE_DOES_NOT_EXIST', 'The table does not exist.'),
      'POST /api/database/rows/table/:table/': (req) => {
        const row = { id: rows.length + 1, order: '1.00', ...(req.body as object) };
        rows.push(row);
        return row;
      },
      'GET /api/database/rows/table/:table/:row/': (req) =>
        rows.find((row) => String(row.id) === req.params.row) ??
        baserowError(404, 'ERROR_ROW_DOES_NOT_EXIST', `The row ${req.params.row} does not exist.`),
      'PATCH /api/database/rows/table/:table/:row/': (req) => {
        const row = rows.find((r) => String(r.id) === req.params.row);
        return row
          ? Object.assign(row, req.body)
          : baserowError(404, 'ERROR_ROW_DOES_NOT_EXIST', 'The row does not exist.');
      },
      'DELETE /api/database/rows/table/:table/:row/': () => reply(204),
    },
  });
});
afterAll(() => vendor.close());
beforeEach(() => {
  rows = Array.from({ length: 250 }, (_, i) => ({
    id: i + 1,
    order: `${i + 1}.00`,
    Name: i === 0 ? '' : `Lead ${i + 1}`,
    Stage: i % 2 ? 'won' : 'open',
    Modified: new Date(Date.UTC(2024, 0, 1, 0, 0, i % 7 === 0 ? 250 - i : i)).toISOString(),
  }));
});

const auth = (token = TOKEN) => ({ instanceUrl: `${vendor.url}/`, token });
const call = (parameters: Record<string, unknown> = {}) => ({ parameters, auth: auth() });

describe('baserow: connection', () => {
  it('checks the database token on the server the connection names', async () => {
    const check = await verifyAppAuth(baserow, auth());
    expect(check).toMatchObject({ ok: true, screenName: `${new URL(vendor.url).host} (2 tables)` });
    expect(vendor.calls('GET /api/database/tokens/check/').at(-1)?.headers.authorization).toBe(`Token ${TOKEN}`);
  });

  it("refuses a wrong token with Baserow's detail", async () => {
    expect(await verifyAppAuth(baserow, auth('nope-token'))).toEqual({
      ok: false,
      reason: `GET ${vendor.url}/api/database/tokens/check/ answered 401: The provided token does not exist.`,
    });
  });

  it("uses Baserow's cloud (or APP_BASE_URL_BASEROW) when no server is named", async () => {
    const check = await verifyAppAuth(baserow, { token: TOKEN }, { baseUrl: vendor.url });
    expect(check).toMatchObject({ ok: true, screenName: 'api.baserow.io (2 tables)' });
  });
});

describe('baserow: actions', () => {
  it('creates a row by field names, JSON lists sent as lists', async () => {
    const output = await runAppAction(
      baserow,
      'createRow',
      call({
        tableId: '11',
        values: [
          { key: 'Name', value: 'Ada' },
          { key: 'Deals', value: '[12, 13]' },
        ],
      }),
    );
    const sent = vendor.calls('POST /api/database/rows/table/:table/').at(-1);
    expect(sent?.query).toEqual({ user_field_names: 'true' });
    expect(sent?.body).toEqual({ Name: 'Ada', Deals: [12, 13] });
    expect(output).toMatchObject({ id: 251, Name: 'Ada' });
  });

  it('updates, reads and deletes a row', async () => {
    expect(
      await runAppAction(
        baserow,
        'updateRow',
        call({ tableId: '11', rowId: '2', values: [{ key: 'Stage', value: 'lost' }] }),
      ),
    ).toMatchObject({ id: 2, Stage: 'lost', Name: 'Lead 2' });
    expect(vendor.calls('PATCH /api/database/rows/table/:table/:row/').at(-1)?.body).toEqual({ Stage: 'lost' });
    expect(await runAppAction(baserow, 'getRow', call({ tableId: '11', rowId: '2' }))).toMatchObject({ Stage: 'lost' });
    expect(await runAppAction(baserow, 'deleteRow', call({ tableId: '11', rowId: '2' }))).toEqual({
      tableId: '11',
      rowId: '2',
      deleted: true,
    });
  });

  it('finds rows by a search and field equalities', async () => {
    const output = (await runAppAction(
      baserow,
      'findRows',
      call({ tableId: '11', search: 'Lead 1', filters: [{ key: 'Stage', value: 'won' }], orderBy: '-id', limit: 3 }),
    )) as { rows: Row[]; count: number };
    expect(output.rows.map((row) => row.id)).toEqual([198, 196, 194]);
    expect(vendor.calls('GET /api/database/rows/table/:table/').at(-1)?.query).toEqual({
      user_field_names: 'true',
      size: '3',
      search: 'Lead 1',
      order_by: '-id',
      filter__Stage__equal: 'won',
    });
  });

  it("surfaces Baserow's detail", async () => {
    await expect(runAppAction(baserow, 'getRow', call({ tableId: '11', rowId: '999' }))).rejects.toThrow(
      /answered 404: The row 999 does not exist\./,
    );
  });

  it('turns a 429 into a retryable failure', async () => {
    vendor.rateLimit(1);
    const outcome = await runAppActionOutcome(baserow, 'getRow', {
      parameters: { tableId: '11', rowId: '3' },
      auth: auth(),
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('baserow: triggers and dynamic data', () => {
  it('polls new rows, newest first, one page of 100', async () => {
    const items = await runAppTrigger(baserow, 'newRow', call({ tableId: '11' }));
    expect(items).toHaveLength(100);
    expect(items.slice(0, 2).map((item) => item.id)).toEqual(['250', '249']);
    expect(vendor.calls('GET /api/database/rows/table/:table/').at(-1)?.query).toEqual({
      user_field_names: 'true',
      size: '100',
      order_by: '-id',
      page: '1',
    });
  });

  it('polls changed rows by their last modified field, a new id for each change', async () => {
    const items = await runAppTrigger(baserow, 'updatedRow', call({ tableId: '11', field: 'Modified' }));
    expect(items[0]).toEqual({ id: '1@2024-01-01T00:04:10.000Z', data: expect.objectContaining({ id: 1 }) });
    expect(vendor.calls('GET /api/database/rows/table/:table/').at(-1)?.query.order_by).toBe('-Modified');
  });

  it('lists tables, fields, and rows through every page by their primary field', async () => {
    expect(await loadAppDynamicData(baserow, 'listTables', call())).toEqual([
      { name: 'Leads', value: '11' },
      { name: 'Deals', value: '12' },
    ]);
    expect(await loadAppDynamicData(baserow, 'listFields', call({ tableId: '11' }))).toEqual([
      { name: 'Name (text)', value: 'Name' },
      { name: 'Stage (single_select)', value: 'Stage' },
      { name: 'Modified (last_modified)', value: 'Modified' },
    ]);
    const options = await loadAppDynamicData(baserow, 'listRows', call({ tableId: '11' }));
    expect(options).toHaveLength(250);
    expect(options.slice(0, 2)).toEqual([
      { name: '#1', value: '1' },
      { name: 'Lead 2 (#2)', value: '2' },
    ]);
    expect(
      vendor
        .calls('GET /api/database/rows/table/:table/')
        .slice(-2)
        .map((req) => req.query.page),
    ).toEqual(['1', '2']);
    expect(await loadAppDynamicData(baserow, 'listRows', call())).toEqual([]);
  });
});
