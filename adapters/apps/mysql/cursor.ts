import { quoteIdentifier } from './identifiers.js';
import type { Row } from './values.js';

/**
 * Where a polling trigger is in a table: the values of its ordering columns (the increasing column,
 * then for `updatedRow` the key column that breaks ties) at a row. JSON, kept in the flow's store.
 */
export type Mark = readonly (string | number)[];

/**
 * The trigger's state. `seen` is the last row it has returned as new; `from` is where the batch
 * that brought `seen` began (exclusive; null: the table's start). Each poll returns the rows after
 * `seen` (new) and again those of that last batch, (`from`, `seen`]: the engine drops the ids it
 * has seen, so the repeat costs nothing, and a batch whose runs were never started (the instance
 * stopped between the poll and the runs) is handed over again; it also catches a row committed
 * late with a value inside the batch, and is what testing the trigger shows when nothing is new.
 */
export interface Cursor {
  readonly from: Mark | null;
  readonly seen: Mark | null;
}

export const isCursor = (value: unknown): value is Cursor =>
  typeof value === 'object' &&
  value !== null &&
  'from' in value &&
  'seen' in value &&
  [value.from, value.seen].every((mark) => mark === null || Array.isArray(mark));

/** One SQL condition with the values it binds, in order. */
export interface Condition {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** Rows strictly after `mark` in the order of `columns` (keyset pagination; one or two columns). */
export const afterMark = (columns: readonly string[], mark: Mark): Condition => compare(columns, mark, '>');

/** Rows at or before `mark`. */
export const atOrBeforeMark = (columns: readonly string[], mark: Mark): Condition => compare(columns, mark, '<=');

const compare = (columns: readonly string[], mark: Mark, operator: '>' | '<='): Condition => {
  if (mark.length !== columns.length) throw new Error('The trigger’s stored position does not fit its columns.');
  const quoted = columns.map(quoteIdentifier);
  const strict = operator === '>' ? '>' : '<';
  // (a, b) > (x, y) is a > x OR (a = x AND b > y), and so on for more columns.
  const parts: string[] = [];
  const params: unknown[] = [];
  quoted.forEach((column, i) => {
    const last = i === quoted.length - 1;
    const equal = quoted.slice(0, i).map((earlier) => `${earlier} = ?`);
    parts.push([...equal, `${column} ${last ? operator : strict} ?`].join(' AND '));
    params.push(...mark.slice(0, i), mark[i]);
  });
  return { sql: parts.length === 1 ? (parts[0] ?? '') : `(${parts.map((p) => `(${p})`).join(' OR ')})`, params };
};

/** The value of `column` in a row, found whatever the case of its name. */
const columnValue = (row: Row, column: string): unknown => {
  if (column in row) return row[column];
  const name = Object.keys(row).find((key) => key.toLowerCase() === column.toLowerCase());
  if (name === undefined) throw new Error(`The rows have no column "${column}".`);
  return row[name];
};

/** The row's mark: its values of the ordering columns, which must be numbers, text or dates. */
export const markOf = (row: Row, columns: readonly string[]): Mark =>
  columns.map((column) => {
    const value = columnValue(row, column);
    if (typeof value === 'number' || typeof value === 'string') return value;
    if (typeof value === 'bigint') return value.toString();
    throw new Error(`The column "${column}" must hold numbers, text or dates to be followed (not ${typeof value}).`);
  });
