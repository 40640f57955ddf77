import { graphPages } from '../microsoft-common/index.js';
import { defineTrigger, pollingTrigger, segment } from '../sdk/index.js';
import { driveId, tableColumns, tableId, workbookId, workbookPath } from './workbook.js';

interface TableRow {
  readonly index: number;
  readonly values?: readonly (readonly unknown[])[];
}

/** How many of a table's last rows a poll hands on: the engine starts a run for those it has not seen. */
const LAST_ROWS = 100;

export const newTableRow = defineTrigger({
  key: 'newTableRow',
  name: 'New table row',
  description: 'Starts a run for each row added at the end of a table.',
  type: 'polling',
  arguments: { driveId, workbookId, tableId },
  async run(ctx) {
    const workbook = workbookPath(ctx.parameters);
    const table = `${workbook}/tables/${segment(ctx.parameters.tableId)}`;
    const columns = await tableColumns(ctx.http, workbook, ctx.parameters.tableId);
    const rows = await graphPages<TableRow>(ctx.http, { path: `${table}/rows` }, { maxItems: 100_000 });
    return rows
      .sort((a, b) => b.index - a.index)
      .slice(0, LAST_ROWS)
      .map((row) => {
        const values = row.values?.[0] ?? [];
        const named = Object.fromEntries(columns.map((column, i) => [column.name, values[i] ?? null]));
        return { id: String(row.index), data: { index: row.index, values, row: named } };
      });
  },
});

export const newWorksheet = pollingTrigger({
  key: 'newWorksheet',
  name: 'New worksheet',
  description: 'Starts a run for each worksheet added to a workbook.',
  arguments: { driveId, workbookId },
  request: (p) => ({ path: `${workbookPath(p)}/worksheets` }),
  // Graph lists worksheets in their tab order: the last tabs first, as a new one is added at the end.
  items: (data: { value?: { position?: number }[] }) =>
    [...(data.value ?? [])].sort((a, b) => (b.position ?? 0) - (a.position ?? 0)),
  id: (worksheet) => worksheet.id,
});
