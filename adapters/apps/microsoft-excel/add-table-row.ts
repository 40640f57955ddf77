import { defineAction, keyValueList, segment } from '../sdk/index.js';
import { driveId, tableColumns, tableId, workbookId, workbookPath } from './workbook.js';

export const addTableRow = defineAction({
  key: 'addTableRow',
  name: 'Add table row',
  description: 'Adds a row at the end of a table, each value in the column its header names.',
  arguments: {
    driveId,
    workbookId,
    tableId,
    values: keyValueList({
      label: 'Values',
      required: true,
      description: "Column header, and the cell's value. Columns left out stay empty.",
      acceptsVariables: true,
    }),
  },
  async run(ctx) {
    const workbook = workbookPath(ctx.parameters);
    const columns = await tableColumns(ctx.http, workbook, ctx.parameters.tableId);
    const byName = new Map(columns.map((column, position) => [column.name, position]));
    const unknown = ctx.parameters.values.filter((entry) => !byName.has(entry.key)).map((entry) => entry.key);
    if (unknown.length > 0) {
      throw new Error(
        `The table has no column ${unknown.map((name) => `"${name}"`).join(', ')}; its columns are ${columns.map((column) => `"${column.name}"`).join(', ')}.`,
      );
    }
    const row: string[] = columns.map(() => '');
    for (const entry of ctx.parameters.values) row[byName.get(entry.key) ?? 0] = entry.value;
    const { data } = await ctx.http.request({
      method: 'POST',
      path: `${workbook}/tables/${segment(ctx.parameters.tableId)}/rows/add`,
      body: { index: null, values: [row] },
    });
    return data;
  },
});
