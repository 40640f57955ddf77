import type { Connection } from './connection.js';
import { jsonSafeRows, type Row } from './values.js';

/** What mysql2 answers for a statement that changes rows. */
export interface WriteHeader {
  readonly affectedRows: number;
  readonly insertId: number | string;
  readonly changedRows: number;
}

/** mysql2's ResultSetHeader (a row with a column named `affectedRows` is not one). */
const isHeader = (value: unknown): value is WriteHeader =>
  typeof value === 'object' && value !== null && value.constructor?.name === 'ResultSetHeader';

/**
 * Runs one statement. With parameters it is a server-side prepared statement (`execute`): the
 * values travel apart from the SQL and are never part of its text. Without, it goes as text
 * (`query`), which every statement supports (some, such as a few SHOW or admin statements, cannot
 * be prepared).
 */
export const runStatement = async (
  connection: Connection,
  sql: string,
  params: readonly unknown[],
): Promise<Row[] | WriteHeader> => {
  const [result] =
    params.length === 0 ? await connection.query(sql) : await connection.execute(sql, params as ExecuteValues);
  return result as unknown as Row[] | WriteHeader;
};

type ExecuteValues = Parameters<Connection['execute']>[1];

/**
 * The rows of a SELECT of ours, always prepared: the binary protocol writes values one way
 * (a DATETIME(6) without fraction as `2030-01-01 00:00:00`, where the text protocol adds
 * `.000000`), so a trigger's ids stay the same from one poll to the next.
 */
export const selectRows = async (connection: Connection, sql: string, params: readonly unknown[]): Promise<Row[]> => {
  const [result] = await connection.execute(sql, params as ExecuteValues);
  if (!Array.isArray(result)) throw new Error('The statement did not answer with rows.');
  return result as Row[];
};

/**
 * The output of a statement the user wrote: `{ rows }` for one that reads (a CALL: its first
 * result set), `{ affectedRows, insertId, changedRows }` for one that writes.
 */
export const outputOf = (result: unknown) => {
  if (isHeader(result)) return writeOutput(result);
  if (Array.isArray(result)) {
    // A CALL answers its result sets (arrays of rows), then a header; a SELECT, its rows.
    if (result.some((part) => Array.isArray(part) || isHeader(part))) {
      const first = result.find((part): part is Row[] => Array.isArray(part));
      return { rows: jsonSafeRows(first ?? []) };
    }
    return { rows: jsonSafeRows(result as Row[]) };
  }
  return { rows: [] };
};

export const writeOutput = (header: WriteHeader) => ({
  affectedRows: header.affectedRows,
  insertId: numberOrText(header.insertId),
  changedRows: header.changedRows,
});

const numberOrText = (value: number | string): number | string =>
  typeof value === 'string' && Number.isSafeInteger(Number(value)) ? Number(value) : value;

export const headerOf = (result: Row[] | WriteHeader): WriteHeader => {
  if (!isHeader(result)) throw new Error('The statement did not answer with a count of rows.');
  return result;
};
