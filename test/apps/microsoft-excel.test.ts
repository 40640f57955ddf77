import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { microsoftExcel } from '../../adapters/apps/microsoft-excel/index.js';
import type { FakeRequest } from '../support/fake-vendor.js';
import {
  describeMicrosoftConnection,
  type FakeGraph,
  FOLLOWED_SITES,
  graphError,
  graphPage,
  runRateLimited,
  startFakeGraph,
} from './support/microsoft-common-fake.js';

const WB = '/me/drive/items/wb1/workbook';
const SHEET1 = '{00000000-0001-0000-0000-000000000000}';

const COLUMNS = [
  { id: '3', name: 'Total', index: 2 },
  { id: '1', name: 'Name', index: 0 },
  { id: '2', name: 'Email', index: 1 },
];

const ROWS = Array.from({ length: 130 }, (_, index) => ({
  index,
  values: [[`Person ${index}`, `p${index}@contoso.test`, index * 10]],
}));

const SEARCH = [
  { id: 'wb1', name: 'Budget.xlsx', file: { mimeType: 'application/vnd.ms-excel' } },
  { id: 'folder', name: 'old.xlsx', folder: { childCount: 2 } },
  { id: 'doc', name: 'Notes.docx', file: {} },
  { id: 'wb2', name: 'Macros.xlsm', file: {} },
  { id: 'wb3', name: 'Sales 2024.xlsx', file: {} },
];

const columns = (req: FakeRequest) =>
  req.query.$select === 'id,name,index' ? { value: COLUMNS } : graphError(400, 'BadRequest', 'Expected $select.');

let graph: FakeGraph;

beforeAll(async () => {
  graph = await startFakeGraph({
    [`GET ${WB}/tables/:table/columns`]: (req) =>
      req.params.table === 't1'
        ? columns(req)
        : graphError(404, 'ItemNotFound', 'The requested resource does not exist.'),
    [`GET ${WB}/tables/t1/rows`]: () => ({ value: ROWS }),
    [`POST ${WB}/tables/t1/rows/add`]: (req) => ({
      '@odata.type': '#microsoft.graph.workbookTableRow',
      index: 130,
      values: (req.body as { values: unknown[] }).values,
    }),
    [`GET ${WB}/worksheets`]: () => ({
      value: [
        { id: SHEET1, name: 'Sheet1', position: 0, visibility: 'Visible' },
        { id: '{B2}', name: 'Q2', position: 1, visibility: 'Visible' },
      ],
    }),
    [`GET ${WB}/tables`]: () => ({ value: [{ id: 't1', name: 'People', showHeaders: true }] }),
    [`POST ${WB}/worksheets/add`]: (req) => {
      const { name } = req.body as { name: string };
      return name === 'Sheet1'
        ? graphError(409, 'ItemAlreadyExists', 'A resource with the same name or identifier already exists.')
        : { id: '{C3}', name, position: 2, visibility: 'Visible' };
    },
    [`PATCH ${WB}/worksheets/:sheet/range(address='A1:B2')`]: (req) => ({
      address: `${req.params.sheet === SHEET1 ? 'Sheet1' : 'Other'}!A1:B2`,
      values: (req.body as { values: unknown }).values,
    }),
    "GET /me/drive/root/search(q='.xlsx')": (req) => graphPage(req, SEARCH, 2),
    'GET /drives/:drive/items/:item/workbook/worksheets': (req) => ({
      value: [{ id: `${req.params.drive}:${req.params.item}`, name: 'Shared', position: 0 }],
    }),
  });
});
afterAll(() => graph.close());

describeMicrosoftConnection(() => ({
  app: microsoftExcel,
  graph,
  scopes: ['Files.ReadWrite.All', 'Sites.Read.All'],
  refreshedBy: {
    kind: 'trigger',
    key: 'newWorksheet',
    parameters: { workbookId: 'wb1' },
    route: `GET ${WB}/worksheets`,
  },
}));

describe('microsoft-excel: triggers', () => {
  it('newTableRow: the last 100 rows, newest first, each by its index and with its header names', async () => {
    const items = await runAppTrigger(microsoftExcel, 'newTableRow', graph.call({ workbookId: 'wb1', tableId: 't1' }));
    expect(items).toHaveLength(100);
    expect(items.map((item) => item.id).slice(0, 3)).toEqual(['129', '128', '127']);
    expect(items[0]?.data).toEqual({
      index: 129,
      values: ['Person 129', 'p129@contoso.test', 1290],
      row: { Name: 'Person 129', Email: 'p129@contoso.test', Total: 1290 },
    });
  });

  it('newWorksheet: the last tabs first, by id', async () => {
    const items = await runAppTrigger(microsoftExcel, 'newWorksheet', graph.call({ workbookId: 'wb1' }));
    expect(items.map((item) => item.id)).toEqual(['{B2}', SHEET1]);
  });

  it('reads a workbook of a SharePoint library through its drive', async () => {
    const items = await runAppTrigger(
      microsoftExcel,
      'newWorksheet',
      graph.call({ driveId: 'b!lib', workbookId: 'wb/9' }),
    );
    expect(items.map((item) => item.id)).toEqual(['b!lib:wb/9']);
    expect(graph.vendor.calls('GET /drives/:drive/items/:item/workbook/worksheets').at(-1)?.path).toBe(
      '/drives/b!lib/items/wb%2F9/workbook/worksheets',
    );
  });
});

describe('microsoft-excel: actions', () => {
  it('addTableRow puts each value in the column its header names, blanks elsewhere', async () => {
    const output = await runAppAction(
      microsoftExcel,
      'addTableRow',
      graph.call({
        workbookId: 'wb1',
        tableId: 't1',
        values: [
          { key: 'Total', value: '42' },
          { key: 'Name', value: 'Ann' },
        ],
      }),
    );
    const sent = graph.vendor.calls(`POST ${WB}/tables/t1/rows/add`).at(-1);
    expect(sent?.body).toEqual({ index: null, values: [['Ann', '', '42']] });
    expect(output).toMatchObject({ index: 130, values: [['Ann', '', '42']] });
  });

  it('addTableRow names the columns when a value names none of them, and sends nothing', async () => {
    const before = graph.vendor.calls(`POST ${WB}/tables/t1/rows/add`).length;
    await expect(
      runAppAction(
        microsoftExcel,
        'addTableRow',
        graph.call({ workbookId: 'wb1', tableId: 't1', values: [{ key: 'Phone', value: '1' }] }),
      ),
    ).rejects.toThrow('The table has no column "Phone"; its columns are "Name", "Email", "Total".');
    expect(graph.vendor.calls(`POST ${WB}/tables/t1/rows/add`)).toHaveLength(before);
  });

  it("addTableRow surfaces Graph's message for a table that is not there", async () => {
    await expect(
      runAppAction(
        microsoftExcel,
        'addTableRow',
        graph.call({ workbookId: 'wb1', tableId: 'gone', values: [{ key: 'Name', value: 'x' }] }),
      ),
    ).rejects.toThrow('answered 404: The requested resource does not exist.');
  });

  it('addWorksheet adds one by name, and reports a taken name in Graph words', async () => {
    expect(await runAppAction(microsoftExcel, 'addWorksheet', graph.call({ workbookId: 'wb1', name: 'Q3' }))).toEqual({
      id: '{C3}',
      name: 'Q3',
      position: 2,
      visibility: 'Visible',
    });
    await expect(
      runAppAction(microsoftExcel, 'addWorksheet', graph.call({ workbookId: 'wb1', name: 'Sheet1' })),
    ).rejects.toThrow('A resource with the same name or identifier already exists.');
  });

  it('updateRange writes rows of values at an A1 address, and refuses anything else', async () => {
    const values = [
      ['Name', 'Total'],
      ['Ann', 12],
    ];
    const output = await runAppAction(
      microsoftExcel,
      'updateRange',
      graph.call({ workbookId: 'wb1', worksheetId: SHEET1, address: 'A1:B2', values: JSON.stringify(values) }),
    );
    expect(output).toEqual({ address: 'Sheet1!A1:B2', values });
    expect(graph.vendor.requests.at(-1)?.method).toBe('PATCH');
    await expect(
      runAppAction(
        microsoftExcel,
        'updateRange',
        graph.call({ workbookId: 'wb1', worksheetId: SHEET1, address: "A1')/x", values: [[1]] }),
      ),
    ).rejects.toMatchObject({ fields: { address: ['must be a cell or a range in A1 notation (A1:C2).'] } });
    await expect(
      runAppAction(
        microsoftExcel,
        'updateRange',
        graph.call({ workbookId: 'wb1', worksheetId: SHEET1, address: 'A1', values: [1, 2] }),
      ),
    ).rejects.toMatchObject({ fields: { values: ['must be a list of rows, each a list of values.'] } });
  });

  it("turns Graph's 429 into a retryable failure after its Retry-After", async () => {
    const outcome = await runRateLimited(microsoftExcel, graph, 'addWorksheet', { workbookId: 'wb1', name: 'Q4' });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 7000 } });
  });
});

describe('microsoft-excel: dynamic data', () => {
  it('listDrives: my OneDrive, my drives, and the libraries of every followed site across pages', async () => {
    const options = await loadAppDynamicData(microsoftExcel, 'listDrives', graph.call());
    expect(options[0]).toEqual({ name: 'My OneDrive', value: '' });
    expect(options[1]).toEqual({ name: 'OneDrive', value: 'b!own' });
    expect(options.slice(2).map((option) => option.value)).toEqual(FOLLOWED_SITES.map((site) => `drive-of-${site.id}`));
    expect(options.at(-1)?.name).toBe('Site 12 / Documents');
  });

  it('listWorkbooks: the Excel files of every page of the search', async () => {
    const options = await loadAppDynamicData(microsoftExcel, 'listWorkbooks', graph.call());
    expect(options).toEqual([
      { name: 'Budget.xlsx', value: 'wb1' },
      { name: 'Macros.xlsm', value: 'wb2' },
      { name: 'Sales 2024.xlsx', value: 'wb3' },
    ]);
    expect(graph.vendor.calls("GET /me/drive/root/search(q='.xlsx')")).toHaveLength(3);
  });

  it('listWorksheets and listTables: those of the chosen workbook, none before one is chosen', async () => {
    expect(await loadAppDynamicData(microsoftExcel, 'listWorksheets', graph.call({ workbookId: 'wb1' }))).toEqual([
      { name: 'Sheet1', value: SHEET1 },
      { name: 'Q2', value: '{B2}' },
    ]);
    expect(await loadAppDynamicData(microsoftExcel, 'listTables', graph.call({ workbookId: 'wb1' }))).toEqual([
      { name: 'People', value: 't1' },
    ]);
    expect(await loadAppDynamicData(microsoftExcel, 'listTables', graph.call())).toEqual([]);
  });
});
