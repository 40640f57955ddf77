import { DRIVE_V3, textList } from '../google-common/index.js';
import { defineAction, dynamicDropdown, segment, text } from '../sdk/index.js';

export const createSpreadsheet = defineAction({
  key: 'createSpreadsheet',
  name: 'Create spreadsheet',
  description: 'Create a blank spreadsheet or duplicate an existing spreadsheet. Optionally, provide headers.',
  arguments: {
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    spreadsheetId: dynamicDropdown({
      label: 'Spreadsheet to copy',
      description: 'Choose a spreadsheet to copy its data.',
      acceptsVariables: true,
      dynamicData: 'listSpreadsheets',
    }),
    headers: textList({
      label: 'Headers',
      description: 'These headers are ignored if "Spreadsheet to copy" is selected. Separate them with commas.',
      rowKey: 'header',
    }),
  },
  async run(ctx) {
    const { title, spreadsheetId, headers } = ctx.parameters;
    if (spreadsheetId) {
      // A copy is Drive's: the new file, named after the title.
      const { data } = await ctx.http.request({
        method: 'POST',
        url: `${DRIVE_V3}/files/${segment(spreadsheetId)}/copy`,
        query: { supportsAllDrives: true },
        body: { name: title },
      });
      return data;
    }
    const rowData =
      headers.length > 0 ? [{ values: headers.map((header) => ({ userEnteredValue: { stringValue: header } })) }] : [];
    const { data } = await ctx.http.request({
      method: 'POST',
      path: '/v4/spreadsheets',
      body: { properties: { title }, sheets: [{ data: [{ startRow: 0, startColumn: 0, rowData }] }] },
    });
    return data;
  },
});
