import { defineTrigger, dynamicDropdown, number, type TriggerContext, type TriggerItem } from '../sdk/index.js';
import { table } from './actions.js';
import { type Connection, mysqlAuth, withConnection } from './connection.js';
import { afterMark, atOrBeforeMark, type Condition, type Cursor, isCursor, type Mark, markOf } from './cursor.js';
import { quoteIdentifier, quoteTable } from './identifiers.js';
import { selectRows } from './statements.js';
import { jsonSafe, type Row } from './values.js';

/** New rows one poll takes at most; the rest come with the next polls. */
export const POLL_LIMIT = 100;
/** Rows of the last batch returned again at most (a batch plus rows committed late inside it). */
const REPEAT_LIMIT = 1000;

const pollInterval = number({
  label: 'Poll every (minutes)',
  default: 5,
  integer: true,
  min: 1,
  max: 59,
});

const columnArgument = (label: string, description: string) =>
  dynamicDropdown({ label, required: true, dynamicData: 'listColumns', description, acceptsVariables: true });
const keyColumn = dynamicDropdown({
  label: 'Key column',
  default: 'id',
  dynamicData: 'listColumns',
  description: 'A unique column that names the row, such as its primary key.',
  acceptsVariables: true,
});

interface Followed {
  readonly table: string;
  /** The ordering columns: the increasing column, then any tie-breaker. */
  readonly columns: readonly string[];
}

const select = async (
  connection: Connection,
  { table: name, columns }: Followed,
  conditions: readonly Condition[],
  direction: 'ASC' | 'DESC',
  limit: number,
): Promise<Row[]> => {
  const all = [...columns.map((c) => ({ sql: `${quoteIdentifier(c)} IS NOT NULL`, params: [] })), ...conditions];
  const order = columns.map((c) => `${quoteIdentifier(c)} ${direction}`).join(', ');
  const sql = `SELECT * FROM ${quoteTable(name)} WHERE ${all.map((c) => c.sql).join(' AND ')} ORDER BY ${order} LIMIT ${limit}`;
  return selectRows(
    connection,
    sql,
    all.flatMap((c) => c.params),
  );
};

/**
 * One poll: the rows after the cursor, oldest first up to the limit, plus the last batch again
 * (see `Cursor`); the first poll, which the engine only learns from, the newest rows. Returned
 * newest first; the cursor moves only when new rows came.
 */
const poll = async (
  ctx: TriggerContext<unknown>,
  followed: Followed,
  idOf: (mark: Mark) => string,
): Promise<TriggerItem[]> => {
  const storeKey = `mysql:cursor:${JSON.stringify([followed.table, ...followed.columns])}`;
  const stored = await ctx.store.get(storeKey);
  const rows = await withConnection(ctx, mysqlAuth.read(ctx.auth), async (connection) => {
    if (!isCursor(stored)) {
      const newest = await select(connection, followed, [], 'DESC', POLL_LIMIT);
      const [first, second] = newest;
      await ctx.store.set(storeKey, {
        from: second ? markOf(second, followed.columns) : null,
        seen: first ? markOf(first, followed.columns) : null,
      } satisfies Cursor);
      return newest;
    }
    const { from, seen } = stored;
    const repeated =
      seen === null
        ? []
        : await select(
            connection,
            followed,
            [...(from ? [afterMark(followed.columns, from)] : []), atOrBeforeMark(followed.columns, seen)],
            'DESC',
            REPEAT_LIMIT,
          );
    const fresh = await select(
      connection,
      followed,
      seen ? [afterMark(followed.columns, seen)] : [],
      'ASC',
      POLL_LIMIT,
    );
    const last = fresh.at(-1);
    if (last) await ctx.store.set(storeKey, { from: seen, seen: markOf(last, followed.columns) } satisfies Cursor);
    return [...fresh.reverse(), ...repeated];
  });
  return rows.map((row) => ({ id: idOf(markOf(row, followed.columns)), data: jsonSafe(row) }));
};

const everyMinutes = (minutes: number) => ({ cron: `*/${minutes} * * * *`, timezone: 'UTC' });

export const newRow = defineTrigger({
  key: 'newRow',
  name: 'New row',
  description: 'Starts the flow for each new row, found by an increasing unique column (an AUTO_INCREMENT id).',
  type: 'polling',
  arguments: {
    table,
    column: columnArgument(
      'Increasing column',
      'A unique column whose value grows with each new row, such as an AUTO_INCREMENT id.',
    ),
    pollInterval,
  },
  run: (ctx) =>
    poll(ctx, { table: ctx.parameters.table, columns: [ctx.parameters.column] }, ([value]) => String(value)),
  schedule: (parameters) => everyMinutes(parameters.pollInterval),
});

export const updatedRow = defineTrigger({
  key: 'updatedRow',
  name: 'New or updated row',
  description:
    'Starts the flow for each row whose timestamp column moved forward, such as updated_at ON UPDATE CURRENT_TIMESTAMP(6).',
  type: 'polling',
  arguments: {
    table,
    column: columnArgument(
      'Timestamp column',
      'A column set to the time of each change; with microseconds (TIMESTAMP(6)), two changes in one second both count.',
    ),
    keyColumn,
    pollInterval,
  },
  run: (ctx) =>
    poll(
      ctx,
      { table: ctx.parameters.table, columns: [ctx.parameters.column, ctx.parameters.keyColumn] },
      ([timestamp, key]) => JSON.stringify([key, timestamp]),
    ),
  schedule: (parameters) => everyMinutes(parameters.pollInterval),
});
