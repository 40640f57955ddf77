import { defineTrigger, type HttpClient, segment, text } from '../sdk/index.js';
import { column, table } from './arguments.js';

type Row = Record<string, unknown>;

/** The 100 rows with the highest values of a column, highest first (rows without one last). */
const newest = async (http: HttpClient, tableName: string, orderColumn: string) =>
  (
    await http.request<readonly Row[]>({
      path: `/${segment(tableName)}`,
      query: { select: '*', order: `${orderColumn}.desc.nullslast`, limit: 100 },
    })
  ).data;

/** A column's value as an id: text as it is, anything else as JSON. */
const idPart = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

export const newRow = defineTrigger({
  key: 'newRow',
  name: 'New row',
  description: 'Starts the flow for each row added to a table.',
  type: 'polling',
  arguments: {
    table,
    column: column('Column', 'Unique and increasing: an identity id, a creation time.'),
  },
  async run(ctx) {
    const rows = await newest(ctx.http, ctx.parameters.table, ctx.parameters.column);
    return rows.map((row) => ({ id: idPart(row[ctx.parameters.column]), data: row }));
  },
});

export const updatedRow = defineTrigger({
  key: 'updatedRow',
  name: 'Updated row',
  description: 'Starts the flow for each row changed (or added), by a time column set on each change.',
  type: 'polling',
  arguments: {
    table,
    column: column('Changed at', 'A time column set on each change (updated_at).'),
    keyColumn: text({ label: 'Key column', default: 'id', description: 'What names the row: its primary key.' }),
  },
  async run(ctx) {
    const { column: changedAt, keyColumn } = ctx.parameters;
    const rows = await newest(ctx.http, ctx.parameters.table, changedAt);
    // A row changed again has a new time, so a new id, and starts another run.
    return rows.map((row) => ({ id: `${idPart(row[keyColumn])}@${idPart(row[changedAt])}`, data: row }));
  },
});
