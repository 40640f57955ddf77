import { type HttpClient, segment } from '../sdk/index.js';

export interface SheetProperties {
  readonly sheetId: number;
  readonly title: string;
  readonly index?: number;
  readonly [field: string]: unknown;
}

export interface Sheet {
  readonly properties: SheetProperties;
}

/** The worksheets (tabs) of a spreadsheet, in tab order. */
export const sheetsOf = async (http: HttpClient, spreadsheetId: string): Promise<Sheet[]> => {
  const { data } = await http.request<{ sheets?: Sheet[] }>({
    path: `/v4/spreadsheets/${segment(spreadsheetId)}`,
    query: { fields: 'sheets.properties' },
  });
  return data.sheets ?? [];
};

/**
 * The worksheet a step names: by its id (what the dropdown stores, a number saved as text) or,
 * when a variable gave its title instead, by title.
 */
export const findSheet = (sheets: readonly Sheet[], worksheet: string): Sheet | undefined =>
  sheets.find((sheet) => String(sheet.properties.sheetId) === worksheet) ??
  sheets.find((sheet) => sheet.properties.title === worksheet);

export const sheetNamed = async (http: HttpClient, spreadsheetId: string, worksheet: string): Promise<Sheet> => {
  const sheet = findSheet(await sheetsOf(http, spreadsheetId), worksheet);
  if (!sheet) throw new Error(`The spreadsheet has no worksheet ${worksheet}.`);
  return sheet;
};

/** A worksheet's title in A1 notation: always quoted, quotes doubled, so any title is one range. */
export const a1 = (title: string, cells?: string): string =>
  `'${title.replace(/'/g, "''")}'${cells ? `!${cells}` : ''}`;

/** The path of a range's values: the range is one encoded segment (`:append` and the like follow it). */
export const valuesPath = (spreadsheetId: string, range: string, verb = ''): string =>
  `/v4/spreadsheets/${segment(spreadsheetId)}/values/${segment(range)}${verb}`;

/** The first row of a worksheet: its column headers. */
export const headersOf = async (http: HttpClient, spreadsheetId: string, title: string): Promise<string[]> => {
  const { data } = await http.request<{ values?: unknown[][] }>({
    path: valuesPath(spreadsheetId, a1(title, '1:1')),
    query: { majorDimension: 'ROWS' },
  });
  return (data.values?.[0] ?? []).map((cell) => (cell === null || cell === undefined ? '' : String(cell)));
};

/** Writes a header row at the top of a worksheet (as typed: no formulas, no dates parsed). */
export const writeHeaders = async (
  http: HttpClient,
  spreadsheetId: string,
  title: string,
  headers: readonly string[],
): Promise<void> => {
  await http.request({
    method: 'PUT',
    path: valuesPath(spreadsheetId, a1(title, 'A1')),
    query: { valueInputOption: 'RAW' },
    body: { majorDimension: 'ROWS', values: [headers] },
  });
};
