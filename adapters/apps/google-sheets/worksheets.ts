import { type HttpClient, segment } from '../sdk/index.js';
import { type Sheet, sheetsOf, writeHeaders } from './sheets.js';

const batchUpdate = async (http: HttpClient, spreadsheetId: string, requests: readonly unknown[]) =>
  (
    await http.request<{ replies?: { addSheet?: Sheet }[] }>({
      method: 'POST',
      path: `/v4/spreadsheets/${segment(spreadsheetId)}:batchUpdate`,
      body: { requests },
    })
  ).data;

/** A sheet id no worksheet of the spreadsheet has (Sheets takes ids the caller picks). */
const freshSheetId = (sheets: readonly Sheet[]) => {
  const taken = new Set(sheets.map((sheet) => sheet.properties.sheetId));
  for (;;) {
    const id = 1 + Math.floor(Math.random() * 2_000_000_000);
    if (!taken.has(id)) return id;
  }
};

/**
 * Adds a worksheet, with a header row when headers are given. With `replace`, a worksheet of that
 * title is replaced, in one batch so that nothing is half done: the new one is added under a
 * temporary title, the old one deleted, then the new one renamed (Sheets refuses to delete a
 * spreadsheet's only worksheet, or to add a second of the same title).
 */
export const addWorksheet = async (
  http: HttpClient,
  spreadsheetId: string,
  options: { readonly title: string; readonly headers: readonly string[]; readonly replace: boolean },
): Promise<Sheet & { readonly spreadsheetId: string }> => {
  const sheets = await sheetsOf(http, spreadsheetId);
  const existing = options.replace ? sheets.find((sheet) => sheet.properties.title === options.title) : undefined;
  const sheetId = freshSheetId(sheets);
  const requests = existing
    ? [
        { addSheet: { properties: { sheetId, title: `${options.title} (${sheetId})` } } },
        { deleteSheet: { sheetId: existing.properties.sheetId } },
        { updateSheetProperties: { properties: { sheetId, title: options.title }, fields: 'title' } },
      ]
    : [{ addSheet: { properties: { sheetId, title: options.title } } }];
  const answer = await batchUpdate(http, spreadsheetId, requests);
  const added = answer.replies?.[0]?.addSheet?.properties;
  if (options.headers.length > 0) await writeHeaders(http, spreadsheetId, options.title, options.headers);
  return { spreadsheetId, properties: { ...added, sheetId, title: options.title } };
};

/** A worksheet by exact title (case counts), or undefined. */
export const worksheetTitled = async (http: HttpClient, spreadsheetId: string, title: string) =>
  (await sheetsOf(http, spreadsheetId)).find((sheet) => sheet.properties.title === title);
