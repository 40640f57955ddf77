import { driveFilesTrigger, MIME } from '../google-common/index.js';
import { defineTrigger } from '../sdk/index.js';
import { drive, spreadsheet, worksheetWithHeaders } from './arguments.js';
import { a1, sheetNamed, sheetsOf, valuesPath } from './sheets.js';

export const newSpreadsheets = driveFilesTrigger({
  key: 'newSpreadsheets',
  name: 'New spreadsheets',
  description: 'Triggers when you create a new spreadsheet.',
  arguments: { driveId: drive },
  search: (p) => ({ q: `mimeType='${MIME.spreadsheet}' and trashed=false`, driveId: p.driveId }),
  order: 'createdTime',
});

export const newWorksheets = defineTrigger({
  key: 'newWorksheets',
  name: 'New worksheets',
  description: 'Triggers when you create a new worksheet in a spreadsheet.',
  type: 'polling',
  arguments: { driveId: drive, spreadsheetId: spreadsheet },
  async run(ctx) {
    const sheets = await sheetsOf(ctx.http, ctx.parameters.spreadsheetId);
    // New worksheets are added at the end of the tabs unless moved: the last tab first.
    return sheets.reverse().map((sheet) => ({ id: String(sheet.properties.sheetId), data: sheet }));
  },
});

/** Rows a poll hands on at most: the bottom ones. */
const ROWS_PER_POLL = 100;

/** The first row of a range Sheets answers (`'Sheet 1'!A1:D40` -> 1). */
const firstRow = (range: string | undefined) => Number(/!\$?[A-Z]*\$?(\d+)/.exec(range ?? '')?.[1] ?? 1);

export const newSpreadsheetRows = defineTrigger({
  key: 'newSpreadsheetRows',
  name: 'New spreadsheet rows',
  description: 'Triggers when a new row is added to the bottom of a spreadsheet.',
  type: 'polling',
  arguments: {
    driveId: drive,
    spreadsheetId: spreadsheet,
    worksheetId: worksheetWithHeaders,
  },
  async run(ctx) {
    const { spreadsheetId, worksheetId } = ctx.parameters;
    const { title } = (await sheetNamed(ctx.http, spreadsheetId, worksheetId)).properties;
    const { data } = await ctx.http.request<{ range?: string; values?: unknown[][] }>({
      path: valuesPath(spreadsheetId, a1(title)),
      query: { majorDimension: 'ROWS' },
    });
    const values = data.values ?? [];
    const start = firstRow(data.range);
    const headers = (values[0] ?? []).map(String);
    const items = [];
    // The first row holds the headers; a row is known by its number, so a row added below is new.
    for (let index = values.length - 1; index > 0 && items.length < ROWS_PER_POLL; index--) {
      const row = values[index] ?? [];
      if (row.every((cell) => cell === '' || cell === null)) continue;
      const rowNumber = start + index;
      const byHeader = Object.fromEntries(headers.map((header, column) => [header, row[column] ?? '']));
      items.push({ id: String(rowNumber), data: { row, rowNumber, values: byHeader } });
    }
    return items;
  },
});
