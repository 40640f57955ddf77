import { listDriveFiles, MIME } from '../google-common/index.js';
import type { DraftContext } from '../sdk/index.js';
import { sheetsOf } from './sheets.js';

export const listSpreadsheets = (ctx: DraftContext) =>
  listDriveFiles(ctx, `mimeType='${MIME.spreadsheet}' and trashed=false`);

/** The worksheets of the chosen spreadsheet, by sheet id; none until one is chosen. */
export const listWorksheets = async (ctx: DraftContext) => {
  const { spreadsheetId } = ctx.parameters;
  if (typeof spreadsheetId !== 'string' || spreadsheetId === '') return [];
  const sheets = await sheetsOf(ctx.http, spreadsheetId);
  return sheets.map((sheet) => ({ name: sheet.properties.title, value: String(sheet.properties.sheetId) }));
};
