import { textList } from '../google-common/index.js';
import { type DraftContext, describeArguments, parseParameters } from '../sdk/index.js';
import { findSheet, headersOf, sheetsOf } from './sheets.js';

const draftText = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;

/** `header-<i>` for each column of the worksheet's first row, labelled by the header (Automatisch's fields). */
export const listSheetHeaders = async (ctx: DraftContext) => {
  const spreadsheetId = draftText(ctx.parameters.spreadsheetId);
  const worksheetId = draftText(ctx.parameters.worksheetId);
  if (!spreadsheetId || !worksheetId) return [];
  const sheet = findSheet(await sheetsOf(ctx.http, spreadsheetId), worksheetId);
  if (!sheet) return [];
  const headers = await headersOf(ctx.http, spreadsheetId, sheet.properties.title);
  return headers.map((header, index) => ({
    key: `header-${index}`,
    label: header === '' ? `Column ${index + 1}` : header,
    type: 'string' as const,
    required: false,
    acceptsVariables: true,
  }));
};

const createFields = {
  headers: textList({ label: 'Headers', description: 'Separate them with commas.', rowKey: 'header' }),
};

/** Find worksheet's `headers` (of the worksheet it creates), shown when creating is on. */
export const listCreateWorksheetFields = async (ctx: DraftContext) => {
  const on = ctx.parameters.createWorksheet;
  return on === true || on === 'true' ? describeArguments(createFields) : [];
};

export const headerFields = (parameters: Readonly<Record<string, unknown>>) =>
  parseParameters(createFields, parameters);
