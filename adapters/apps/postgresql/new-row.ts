import { defineTrigger, text } from '../sdk/index.js';
import { postgresAuth, withClient } from './connection.js';
import { quoteIdentifier, quoteTable } from './identifiers.js';

/** The most rows one poll hands on as new; a larger backlog is worked through over the next polls. */
const BATCH = 100;
/** The column's value as text, selected beside the row and removed from it. */
const MARK = 'conveyor:mark';

/**
 * What the trigger keeps in the flow's store: the column's value (as text) up to which rows were
 * handed on, for the last two polls. null is "from the start" (the table was empty).
 */
export interface RowMarks {
  /** The high-water mark of the poll before the last one: rows above it are looked at again. */
  readonly mark: string | null;
  /** The high-water mark of the last poll: rows above it are new. */
  readonly last: string | null;
}

type Row = Record<string, unknown>;

const itemsOf = (rows: readonly Row[]) =>
  rows.map(({ [MARK]: mark, ...row }) => ({ id: String(mark), data: row, mark: String(mark) }));

export const newRow = defineTrigger({
  key: 'newRow',
  name: 'New row',
  description:
    'Polls a table and starts the flow for each row whose column (an increasing one: a serial id, a creation time) is above the highest seen.',
  type: 'polling',
  arguments: {
    table: text({ label: 'Table', required: true, placeholder: 'public.orders' }),
    column: text({
      label: 'Increasing column',
      required: true,
      placeholder: 'id',
      description: 'Unique and increasing: each row is new once, when its value is above the highest seen.',
    }),
  },
  async run(ctx) {
    const { table, column } = ctx.parameters;
    const from = quoteTable(table);
    const col = quoteIdentifier(column);
    const select = `SELECT *, ${col}::text AS ${quoteIdentifier(MARK)} FROM ${from}`;
    const key = `postgresql:newRow:${table}:${column}`;
    const marks = (await ctx.store.get(key)) as RowMarks | undefined;
    const connection = postgresAuth.read(ctx.auth);
    if (marks === undefined) {
      // The first look only learns where the table is (the engine starts no run for what exists);
      // the latest row is what testing the trigger shows.
      const latest = itemsOf(
        await withClient(ctx, connection, async (client) => {
          const result = await client.query<Row>(`${select} WHERE ${col} IS NOT NULL ORDER BY ${col} DESC LIMIT 1`);
          return result.rows;
        }),
      );
      const top = latest[0]?.mark ?? null;
      await ctx.store.set(key, { mark: top, last: top } satisfies RowMarks);
      return latest.map(({ id, data }) => ({ id, data }));
    }
    const { last, mark } = marks;
    const { fresh, again } = await withClient(ctx, connection, async (client) => {
      const freshRows =
        last === null
          ? await client.query<Row>(`${select} WHERE ${col} IS NOT NULL ORDER BY ${col} ASC LIMIT ${BATCH}`)
          : await client.query<Row>(`${select} WHERE ${col} > $1 ORDER BY ${col} ASC LIMIT ${BATCH}`, [last]);
      // The last poll's rows once more (the engine knows their ids): should the runs of that poll
      // not have been recorded, or a row below the mark have been committed late, they are not lost.
      const againRows =
        last === null
          ? { rows: [] }
          : mark === null
            ? await client.query<Row>(`${select} WHERE ${col} <= $1 ORDER BY ${col} DESC LIMIT ${BATCH}`, [last])
            : await client.query<Row>(
                `${select} WHERE ${col} <= $1 AND ${col} > $2 ORDER BY ${col} DESC LIMIT ${BATCH}`,
                [last, mark],
              );
      return { fresh: itemsOf(freshRows.rows), again: itemsOf(againRows.rows) };
    });
    await ctx.store.set(key, { mark: last, last: fresh.at(-1)?.mark ?? last } satisfies RowMarks);
    // Newest first, as polling triggers answer.
    return [...fresh.reverse(), ...again].map(({ id, data }) => ({ id, data }));
  },
});
