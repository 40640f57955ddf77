import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  loadAppDynamicData,
  loadAppDynamicFields,
  runAppAction,
  runAppTrigger,
} from '../../adapters/apps/app-harness.js';
import { googleSheets, googleSheetsServiceAccount } from '../../adapters/apps/google-sheets/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import type { FakeRequest } from '../support/fake-vendor.js';
import {
  describeGoogleConnection,
  describeServiceAccount,
  type FakeGoogle,
  FIRST_TOKEN,
  GOOGLE_CLIENT,
  googleError,
  REFRESH_TOKEN,
  startFakeGoogle,
} from './support/google-common-fake.js';

type Sheet = { properties: { sheetId: number; title: string; index: number } };

/** 250 spreadsheets, newest first, over pages of 100 (Drive's nextPageToken). */
const SPREADSHEETS = Array.from({ length: 250 }, (_, i) => ({
  id: `ss${250 - i}`,
  name: `Budget ${250 - i}`,
  mimeType: 'application/vnd.google-apps.spreadsheet',
  createdTime: new Date(Date.UTC(2024, 0, 1, 0, 250 - i)).toISOString(),
}));
const DRIVES = Array.from({ length: 3 }, (_, i) => ({ kind: 'drive#drive', id: `0AD${i}`, name: `Team ${i}` }));

let google: FakeGoogle;
let sheets: Sheet[];
let values: Record<string, unknown[][]>;

const notFound = () => googleError(404, 'Requested entity was not found.', 'NOT_FOUND');

/** Drive's files.list, paged by pageToken (an offset here) and pageSize. */
const driveFiles = (req: FakeRequest) => {
  const start = Number(req.query.pageToken ?? 0);
  const size = Number(req.query.pageSize ?? 100);
  const page = SPREADSHEETS.slice(start, start + Math.min(size, 100));
  const next = start + page.length < SPREADSHEETS.length ? String(start + page.length) : undefined;
  return { kind: 'drive#fileList', files: page, ...(next && { nextPageToken: next }) };
};

/** The range a request names, without the sheet quoting: `'Ann''s list'!1:1` -> ["Ann's list", '1:1']. */
const parseRange = (range: string) => {
  const match = /^'((?:[^']|'')*)'(?:!(.*))?$/.exec(range);
  if (!match) throw new Error(`unquoted range ${range}`);
  return [match[1]?.replace(/''/g, "'") ?? '', match[2]] as const;
};

beforeAll(async () => {
  google = await startFakeGoogle({
    'GET /drive/v3/files': driveFiles,
    'GET /drive/v3/drives': (req) =>
      req.query.pageToken === 'p2' ? { drives: DRIVES.slice(2) } : { drives: DRIVES.slice(0, 2), nextPageToken: 'p2' },
    'POST /drive/v3/files/:id/copy': (req) =>
      req.params.id === 'ss1'
        ? { kind: 'drive#file', id: 'copy1', name: (req.body as { name: string }).name }
        : googleError(404, `File not found: ${req.params.id}.`, 'NOT_FOUND', 'notFound'),
    'GET /v4/spreadsheets/:id': (req) =>
      req.params.id === 'ss1' && req.query.fields === 'sheets.properties' ? { sheets } : notFound(),
    'POST /v4/spreadsheets': (req) => ({ spreadsheetId: 'new1', ...(req.body as object) }),
    'POST /v4/spreadsheets/:target': (req) => {
      const [id, verb] = req.params.target?.split(':') ?? [];
      if (id !== 'ss1' || verb !== 'batchUpdate') return notFound();
      const replies = (req.body as { requests: Record<string, { properties?: Sheet['properties'] }>[] }).requests.map(
        (request) => {
          if (request.addSheet) {
            const added = { properties: { index: sheets.length, ...request.addSheet.properties } } as Sheet;
            if (sheets.some((sheet) => sheet.properties.title === added.properties.title)) {
              throw new Error('duplicate title');
            }
            sheets.push(added);
            return { addSheet: added };
          }
          return {};
        },
      );
      return { spreadsheetId: 'ss1', replies };
    },
    'GET /v4/spreadsheets/:id/values/:range': (req) => {
      const [title, cells] = parseRange(req.params.range ?? '');
      const rows = values[title];
      if (!rows) return googleError(400, `Unable to parse range: ${req.params.range}`, 'INVALID_ARGUMENT');
      if (cells === '1:1') return { range: `'${title}'!A1:Z1`, majorDimension: 'ROWS', values: rows.slice(0, 1) };
      return { range: `'${title}'!A1:Z${rows.length}`, majorDimension: 'ROWS', values: rows };
    },
    'POST /v4/spreadsheets/:id/values/:rangeVerb': (req) => {
      const [range, verb] = (req.params.rangeVerb ?? '').split(/:(?=append$)/);
      const [title] = parseRange(range ?? '');
      const rows = values[title];
      if (verb !== 'append' || !rows) return googleError(400, `Unable to parse range: ${range}`, 'INVALID_ARGUMENT');
      const row = (req.body as { values: unknown[][] }).values[0] ?? [];
      rows.push(row);
      const updatedRange = `'${title}'!A${rows.length}:C${rows.length}`;
      return {
        spreadsheetId: req.params.id,
        tableRange: `'${title}'!A1:C${rows.length - 1}`,
        updates: {
          spreadsheetId: req.params.id,
          updatedRange,
          updatedRows: 1,
          updatedColumns: row.length,
          updatedCells: row.length,
          updatedData: { range: updatedRange, majorDimension: 'ROWS', values: [row] },
        },
      };
    },
    'PUT /v4/spreadsheets/:id/values/:range': (req) => {
      const [title] = parseRange(req.params.range ?? '');
      values[title] = [(req.body as { values: unknown[][] }).values[0] ?? []];
      return { spreadsheetId: req.params.id, updatedRange: req.params.range, updatedRows: 1 };
    },
  });
});
afterAll(() => google.close());
beforeEach(() => {
  sheets = [
    { properties: { sheetId: 0, title: 'Payments', index: 0 } },
    { properties: { sheetId: 77, title: "Ann's list", index: 1 } },
  ];
  values = {
    Payments: [
      ['Customer', 'Email', 'Amount'],
      ['Ann', 'ann@example.com', '12.5'],
      [],
      ['Bob', 'bob@example.com', '40'],
    ],
    "Ann's list": [['Item']],
  };
});

describe('google-sheets: keeps Automatisch keys', () => {
  it('app, client settings, triggers and actions with their arguments', () => {
    const steps = (list: readonly { key: string; arguments: readonly { key: string }[] }[]) =>
      Object.fromEntries(list.map((step) => [step.key, step.arguments.map((argument) => argument.key)]));
    expect(googleSheets.key).toBe('google-sheets');
    expect(googleSheets.manifest.auth.kind).toBe('oauth2');
    expect(googleSheets.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(steps(googleSheets.manifest.triggers)).toEqual({
      newSpreadsheets: ['driveId'],
      newWorksheets: ['driveId', 'spreadsheetId'],
      newSpreadsheetRows: ['driveId', 'spreadsheetId', 'worksheetId'],
    });
    expect(steps(googleSheets.manifest.actions)).toEqual({
      createSpreadsheet: ['title', 'spreadsheetId', 'headers'],
      // valueInputOption is ours: Automatisch always parsed values as typed, which stays the default.
      createSpreadsheetRow: ['driveId', 'spreadsheetId', 'worksheetId', 'valueInputOption'],
      createWorksheet: ['driveId', 'spreadsheetId', 'title', 'headers', 'overwrite'],
      findWorksheet: ['driveId', 'spreadsheetId', 'title', 'createWorksheet'],
    });
    expect(Object.keys(googleSheets.dynamicData)).toEqual(['listDrives', 'listSpreadsheets', 'listWorksheets']);
    expect(Object.keys(googleSheets.dynamicFields)).toEqual(['listSheetHeaders', 'listCreateWorksheetFields']);
  });
});

describeGoogleConnection(() => ({
  app: googleSheets,
  google,
  scopes: ['https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/spreadsheets'],
  refreshedBy: {
    kind: 'action',
    key: 'createSpreadsheetRow',
    parameters: { spreadsheetId: 'ss1', worksheetId: '0', 'header-0': 'Cy' },
    route: 'POST /v4/spreadsheets/:id/values/:rangeVerb',
  },
}));

describeServiceAccount(() => ({
  app: googleSheetsServiceAccount,
  google,
  scopes: ['https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/spreadsheets'],
  step: {
    kind: 'action',
    key: 'createSpreadsheetRow',
    parameters: { spreadsheetId: 'ss1', worksheetId: '0', 'header-0': 'Bot' },
    route: 'POST /v4/spreadsheets/:id/values/:rangeVerb',
  },
}));

describe('google-sheets-service-account', () => {
  it('has the steps and dynamic data of google-sheets, under its own key', () => {
    expect(googleSheetsServiceAccount.key).toBe('google-sheets-service-account');
    expect(googleSheetsServiceAccount.manifest.triggers).toEqual(googleSheets.manifest.triggers);
    expect(googleSheetsServiceAccount.manifest.actions).toEqual(googleSheets.manifest.actions);
    expect(Object.keys(googleSheetsServiceAccount.dynamicFields)).toEqual(Object.keys(googleSheets.dynamicFields));
  });
});

describe('google-sheets: createSpreadsheetRow', () => {
  it('appends the header fields as one row of the chosen worksheet, parsed as typed', async () => {
    const output = await runAppAction(
      googleSheets,
      'createSpreadsheetRow',
      google.call({
        spreadsheetId: 'ss1',
        worksheetId: '0',
        'header-0': 'Cy',
        'header-1': 'cy@example.com',
        'header-2': 19.99,
      }),
    );
    const sent = google.vendor.calls('POST /v4/spreadsheets/:id/values/:rangeVerb').at(-1);
    expect(sent?.path).toBe("/v4/spreadsheets/ss1/values/'Payments':append");
    expect(sent?.query).toEqual({
      valueInputOption: 'USER_ENTERED',
      insertDataOption: 'INSERT_ROWS',
      includeValuesInResponse: 'true',
    });
    expect(sent?.body).toEqual({
      range: "'Payments'",
      majorDimension: 'ROWS',
      values: [['Cy', 'cy@example.com', 19.99]],
    });
    expect(sent?.headers.authorization).toBe(`Bearer ${FIRST_TOKEN}`);
    expect(output).toMatchObject({
      spreadsheetId: 'ss1',
      updates: {
        updatedRange: "'Payments'!A5:C5",
        updatedRows: 1,
        updatedData: { values: [['Cy', 'cy@example.com', 19.99]] },
      },
    });
    expect(values.Payments?.at(-1)).toEqual(['Cy', 'cy@example.com', 19.99]);
  });

  it('keeps each value in its column when a field between is blank, and quotes any title', async () => {
    await runAppAction(
      googleSheets,
      'createSpreadsheetRow',
      google.call({
        spreadsheetId: 'ss1',
        worksheetId: '77',
        'header-3': 'd',
        'header-0': 'a',
        'header-1': null,
        valueInputOption: 'RAW',
        unrelated: 'ignored',
      }),
    );
    const sent = google.vendor.calls('POST /v4/spreadsheets/:id/values/:rangeVerb').at(-1);
    expect(sent?.path).toBe("/v4/spreadsheets/ss1/values/'Ann''s%20list':append");
    expect(sent?.query.valueInputOption).toBe('RAW');
    expect(sent?.body).toMatchObject({ range: "'Ann''s list'", values: [['a', '', '', 'd']] });
  });

  it("finds the worksheet by title when a variable gave one, and fails with Google's message", async () => {
    await runAppAction(
      googleSheets,
      'createSpreadsheetRow',
      google.call({ spreadsheetId: 'ss1', worksheetId: "Ann's list", 'header-0': 'x' }),
    );
    expect(values["Ann's list"]?.at(-1)).toEqual(['x']);
    await expect(
      runAppAction(
        googleSheets,
        'createSpreadsheetRow',
        google.call({ spreadsheetId: 'gone', worksheetId: '0', 'header-0': 'x' }),
      ),
    ).rejects.toThrow(/answered 404: Requested entity was not found\./);
    await expect(
      runAppAction(
        googleSheets,
        'createSpreadsheetRow',
        google.call({ spreadsheetId: 'ss1', worksheetId: '5', 'header-0': 'x' }),
      ),
    ).rejects.toThrow('The spreadsheet has no worksheet 5.');
    await expect(
      runAppAction(googleSheets, 'createSpreadsheetRow', google.call({ spreadsheetId: 'ss1', worksheetId: '0' })),
    ).rejects.toThrow(/row is empty/);
  });

  it("refuses a column past Sheets' last", async () => {
    await expect(
      runAppAction(
        googleSheets,
        'createSpreadsheetRow',
        google.call({ spreadsheetId: 'ss1', worksheetId: '0', 'header-99999': 'x' }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParametersError' });
  });

  it('retries a 429, and a 403 that Google says is a rate limit, but not another 403', async () => {
    const catalog = createAppCatalog({
      apps: [googleSheets],
      allowPrivateNetworks: true,
      logger: new CapturingLogger(),
      appAddresses: { APP_BASE_URL_GOOGLE_SHEETS: google.url, APP_AUTH_URL_GOOGLE_SHEETS: google.url },
    });
    const runner = createStepRunner(catalog, [googleSheets]);
    const run = () =>
      runner.runAction({
        appKey: 'google-sheets',
        key: 'createSpreadsheetRow',
        parameters: { spreadsheetId: 'ss1', worksheetId: '0', 'header-0': 'x' },
        connection: {
          credentials: { accessToken: FIRST_TOKEN, refreshToken: REFRESH_TOKEN },
          oauth: { client: GOOGLE_CLIENT, redirectUri: 'http://conveyor.test/cb' },
        },
        execution: null,
      } as never);
    try {
      google.vendor.rateLimit(1);
      expect(await run()).toMatchObject({ kind: 'failure', failure: { retryable: true } });
      const limited = googleError(403, 'User Rate Limit Exceeded', 'PERMISSION_DENIED', 'userRateLimitExceeded');
      google.vendor.route('GET /v4/spreadsheets/:id', () => limited);
      expect(await run()).toMatchObject({
        kind: 'failure',
        failure: { retryable: true, message: expect.stringContaining('User Rate Limit Exceeded') },
      });
      google.vendor.route('GET /v4/spreadsheets/:id', () =>
        googleError(403, 'The caller does not have permission', 'PERMISSION_DENIED'),
      );
      expect(await run()).toMatchObject({
        kind: 'failure',
        failure: { retryable: false, message: expect.stringContaining('does not have permission') },
      });
    } finally {
      google.vendor.route('GET /v4/spreadsheets/:id', (req) =>
        req.params.id === 'ss1' && req.query.fields === 'sheets.properties' ? { sheets } : notFound(),
      );
      await catalog.close();
    }
  });
});

describe('google-sheets: other actions', () => {
  it('creates a spreadsheet with a header row, or copies one through Drive', async () => {
    const created = await runAppAction(
      googleSheets,
      'createSpreadsheet',
      google.call({ title: 'Q3', headers: 'Name, Email' }),
    );
    expect(google.vendor.calls('POST /v4/spreadsheets').at(-1)?.body).toEqual({
      properties: { title: 'Q3' },
      sheets: [
        {
          data: [
            {
              startRow: 0,
              startColumn: 0,
              rowData: [
                {
                  values: [
                    { userEnteredValue: { stringValue: 'Name' } },
                    { userEnteredValue: { stringValue: 'Email' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(created).toMatchObject({ spreadsheetId: 'new1' });
    // Automatisch's rows of headers are taken as they were saved.
    await runAppAction(
      googleSheets,
      'createSpreadsheet',
      google.call({ title: 'Q4', headers: [{ header: 'A' }, { header: '' }] }),
    );
    expect(google.vendor.calls('POST /v4/spreadsheets').at(-1)?.body).toMatchObject({
      sheets: [{ data: [{ rowData: [{ values: [{ userEnteredValue: { stringValue: 'A' } }] }] }] }],
    });

    const copy = await runAppAction(
      googleSheets,
      'createSpreadsheet',
      google.call({ title: 'Copy', spreadsheetId: 'ss1', headers: 'x' }),
    );
    expect(copy).toEqual({ kind: 'drive#file', id: 'copy1', name: 'Copy' });
    expect(google.vendor.calls('POST /drive/v3/files/:id/copy').at(-1)?.query).toEqual({ supportsAllDrives: 'true' });
    await expect(
      runAppAction(googleSheets, 'createSpreadsheet', google.call({ title: 'Copy', spreadsheetId: 'nope' })),
    ).rejects.toThrow(/File not found: nope\./);
  });

  it('creates a worksheet with headers, and replaces one of the same title when asked', async () => {
    const added = (await runAppAction(
      googleSheets,
      'createWorksheet',
      google.call({ spreadsheetId: 'ss1', title: 'June', headers: ['Day', 'Total'] }),
    )) as { properties: { sheetId: number; title: string } };
    expect(added).toMatchObject({ spreadsheetId: 'ss1', properties: { title: 'June' } });
    expect(values.June).toEqual([['Day', 'Total']]);
    expect(google.vendor.calls('PUT /v4/spreadsheets/:id/values/:range').at(-1)?.query).toEqual({
      valueInputOption: 'RAW',
    });

    await runAppAction(
      googleSheets,
      'createWorksheet',
      google.call({ spreadsheetId: 'ss1', title: 'Payments', overwrite: 'true' }),
    );
    const batch = google.vendor.calls('POST /v4/spreadsheets/:target').at(-1)?.body as {
      requests: Record<string, any>[];
    };
    const fresh = batch.requests[0]?.addSheet.properties.sheetId;
    expect(batch.requests).toEqual([
      { addSheet: { properties: { sheetId: fresh, title: `Payments (${fresh})` } } },
      { deleteSheet: { sheetId: 0 } },
      { updateSheetProperties: { properties: { sheetId: fresh, title: 'Payments' }, fields: 'title' } },
    ]);
  });

  it('finds a worksheet by exact title, answers null, or creates it with headers', async () => {
    expect(
      await runAppAction(googleSheets, 'findWorksheet', google.call({ spreadsheetId: 'ss1', title: "Ann's list" })),
    ).toEqual(sheets[1]);
    expect(
      await runAppAction(googleSheets, 'findWorksheet', google.call({ spreadsheetId: 'ss1', title: 'payments' })),
    ).toBeNull();
    const created = await runAppAction(
      googleSheets,
      'findWorksheet',
      google.call({ spreadsheetId: 'ss1', title: 'July', createWorksheet: 'true', headers: 'Day,Total' }),
    );
    expect(created).toMatchObject({ properties: { title: 'July' } });
    expect(values.July).toEqual([['Day', 'Total']]);
  });
});

describe('google-sheets: triggers', () => {
  it('newSpreadsheets: the newest spreadsheets of a shared drive first, by file id', async () => {
    const items = await runAppTrigger(googleSheets, 'newSpreadsheets', google.call({ driveId: '0AD1' }));
    expect(items).toHaveLength(100);
    expect(items[0]).toEqual({ id: 'ss250', data: SPREADSHEETS[0] });
    expect(google.vendor.calls('GET /drive/v3/files').at(-1)?.query).toEqual({
      q: "mimeType='application/vnd.google-apps.spreadsheet' and trashed=false",
      orderBy: 'createdTime desc',
      pageSize: '100',
      fields: '*',
      supportsAllDrives: 'true',
      driveId: '0AD1',
      corpora: 'drive',
      includeItemsFromAllDrives: 'true',
    });
  });

  it('newWorksheets: the last tab first, by sheet id', async () => {
    const items = await runAppTrigger(googleSheets, 'newWorksheets', google.call({ spreadsheetId: 'ss1' }));
    expect(items.map((item) => item.id)).toEqual(['77', '0']);
    expect(items[0]?.data).toEqual(sheets[1]);
  });

  it('newSpreadsheetRows: the bottom rows first, by row number, with their values by header', async () => {
    const items = await runAppTrigger(
      googleSheets,
      'newSpreadsheetRows',
      google.call({ spreadsheetId: 'ss1', worksheetId: '0' }),
    );
    expect(items).toEqual([
      {
        id: '4',
        data: {
          row: ['Bob', 'bob@example.com', '40'],
          rowNumber: 4,
          values: { Customer: 'Bob', Email: 'bob@example.com', Amount: '40' },
        },
      },
      {
        id: '2',
        data: {
          row: ['Ann', 'ann@example.com', '12.5'],
          rowNumber: 2,
          values: { Customer: 'Ann', Email: 'ann@example.com', Amount: '12.5' },
        },
      },
    ]);
    expect(google.vendor.calls('GET /v4/spreadsheets/:id/values/:range').at(-1)?.params.range).toBe("'Payments'");
  });
});

describe('google-sheets: dynamic data and fields', () => {
  it('lists every page of spreadsheets (in the chosen drive) and of shared drives', async () => {
    const spreadsheets = await loadAppDynamicData(googleSheets, 'listSpreadsheets', google.call({ driveId: '0AD2' }));
    expect(spreadsheets).toHaveLength(250);
    expect(spreadsheets[0]).toEqual({ name: 'Budget 250', value: 'ss250' });
    const pages = google.vendor.calls('GET /drive/v3/files').slice(-3);
    expect(pages.map((request) => request.query.pageToken)).toEqual([undefined, '100', '200']);
    expect(pages[0]?.query).toMatchObject({
      driveId: '0AD2',
      corpora: 'drive',
      fields: 'nextPageToken,files(id,name)',
    });

    expect(await loadAppDynamicData(googleSheets, 'listDrives', google.call())).toEqual([
      { name: 'My Google Drive', value: '' },
      { name: 'Team 0', value: '0AD0' },
      { name: 'Team 1', value: '0AD1' },
      { name: 'Team 2', value: '0AD2' },
    ]);
  });

  it('lists the worksheets of the chosen spreadsheet, and none before one is chosen', async () => {
    expect(await loadAppDynamicData(googleSheets, 'listWorksheets', google.call({ spreadsheetId: 'ss1' }))).toEqual([
      { name: 'Payments', value: '0' },
      { name: "Ann's list", value: '77' },
    ]);
    expect(await loadAppDynamicData(googleSheets, 'listWorksheets', google.call())).toEqual([]);
  });

  it("adds a field per column header (Automatisch's header-<i>), and the headers of a worksheet to create", async () => {
    const fields = await loadAppDynamicFields(
      googleSheets,
      'listSheetHeaders',
      google.call({ spreadsheetId: 'ss1', worksheetId: 0 }),
    );
    expect(fields).toEqual([
      { key: 'header-0', label: 'Customer', type: 'string', required: false, acceptsVariables: true },
      { key: 'header-1', label: 'Email', type: 'string', required: false, acceptsVariables: true },
      { key: 'header-2', label: 'Amount', type: 'string', required: false, acceptsVariables: true },
    ]);
    expect(google.vendor.calls('GET /v4/spreadsheets/:id/values/:range').at(-1)?.params.range).toBe("'Payments'!1:1");
    expect(await loadAppDynamicFields(googleSheets, 'listSheetHeaders', google.call({ spreadsheetId: 'ss1' }))).toEqual(
      [],
    );
    expect(
      (
        await loadAppDynamicFields(googleSheets, 'listCreateWorksheetFields', google.call({ createWorksheet: true }))
      ).map((f) => f.key),
    ).toEqual(['headers']);
    expect(
      await loadAppDynamicFields(googleSheets, 'listCreateWorksheetFields', google.call({ createWorksheet: false })),
    ).toEqual([]);
  });
});
