import { defineTrigger, dynamicDropdown, type HttpClient } from '../sdk/index.js';
import { tableId } from './arguments.js';
import { rowPages } from './rows.js';

/** The 100 rows first in an order (one page: the newest, for a descending order). */
const firstRows = (http: HttpClient, table: string, orderBy: string) =>
  rowPages(http, table, { order_by: orderBy, size: 100 }, { maxItems: 100, maxPages: 1 });

export const newRow = defineTrigger({
  key: 'newRow',
  name: 'New row',
  description: 'Starts the flow for each row added to a table.',
  type: 'polling',
  arguments: { tableId },
  async run(ctx) {
    const rows = await firstRows(ctx.http, ctx.parameters.tableId, '-id');
    return rows.map((row) => ({ id: String(row.id), data: row }));
  },
});

export const updatedRow = defineTrigger({
  key: 'updatedRow',
  name: 'Updated row',
  description: "Starts the flow for each row changed (or added), by the table's last modified field.",
  type: 'polling',
  arguments: {
    tableId,
    field: dynamicDropdown({
      label: 'Last modified field',
      required: true,
      description: 'A field of type "Last modified".',
      dynamicData: 'listFields',
      dependsOn: ['tableId'],
    }),
  },
  async run(ctx) {
    const { field } = ctx.parameters;
    const rows = await firstRows(ctx.http, ctx.parameters.tableId, `-${field}`);
    // A row changed again has a new time, so a new id, and starts another run.
    return rows.map((row) => ({ id: `${row.id}@${String(row[field] ?? '')}`, data: row }));
  },
});
