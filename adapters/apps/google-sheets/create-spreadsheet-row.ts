import { defineAction, dropdown, InvalidParametersError } from '../sdk/index.js';
import { drive, spreadsheet, worksheet } from './arguments.js';
import { a1, sheetNamed, valuesPath } from './sheets.js';

/** The dynamic fields' keys: `header-<column index>`, 0 for column A (Automatisch's names). */
const HEADER_KEY = /^header-(\d+)$/;
/** Sheets' widest worksheet (column ZZZ). */
const MAX_COLUMNS = 18_278;

type Cell = string | number | boolean;

/** A cell as Sheets takes it: text, numbers and booleans as they are, nothing as an empty cell. */
const cellOf = (value: unknown): Cell => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
};

/**
 * The row, column by column: each `header-<i>` value in column i, and columns between them left
 * empty (so that a blank field never moves the values after it to the left).
 */
export const rowOf = (parameters: Readonly<Record<string, unknown>>): Cell[] => {
  const columns = new Map<number, Cell>();
  for (const [key, value] of Object.entries(parameters)) {
    const match = HEADER_KEY.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    if (index >= MAX_COLUMNS) throw new InvalidParametersError({ [key]: [`must name a column below ${MAX_COLUMNS}.`] });
    columns.set(index, cellOf(value));
  }
  const width = Math.max(-1, ...columns.keys()) + 1;
  const row = Array.from({ length: width }, (_, index) => columns.get(index) ?? '');
  // Trailing empty cells would only widen the written range.
  while (row.length > 0 && row.at(-1) === '') row.pop();
  return row;
};

export const createSpreadsheetRow = defineAction({
  key: 'createSpreadsheetRow',
  name: 'Create spreadsheet row',
  description: 'Creates a new row in a specified spreadsheet.',
  arguments: {
    driveId: drive,
    spreadsheetId: spreadsheet,
    worksheetId: worksheet,
    valueInputOption: dropdown({
      label: 'Values are',
      description:
        'Entered as if typed (numbers, dates and formulas are parsed), or stored as raw text exactly as given.',
      default: 'USER_ENTERED',
      options: [
        { label: 'Typed (parsed)', value: 'USER_ENTERED' },
        { label: 'Raw text', value: 'RAW' },
      ],
    }),
  },
  dynamicFieldsKey: 'listSheetHeaders',
  async run(ctx) {
    const { spreadsheetId, worksheetId, valueInputOption } = ctx.parameters;
    const row = rowOf(ctx.parameters);
    if (row.length === 0) throw new Error('The row is empty: give a value to at least one column.');
    const { title } = (await sheetNamed(ctx.http, spreadsheetId, worksheetId)).properties;
    const range = a1(title);
    // Sheets has no idempotency key: an append retried after a lost answer may add the row twice.
    const { data } = await ctx.http.request({
      method: 'POST',
      path: valuesPath(spreadsheetId, range, ':append'),
      query: { valueInputOption, insertDataOption: 'INSERT_ROWS', includeValuesInResponse: true },
      body: { range, majorDimension: 'ROWS', values: [row] },
    });
    return data;
  },
});
