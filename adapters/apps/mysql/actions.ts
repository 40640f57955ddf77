import * as v from 'valibot';
import { boolean, code, defineAction, dynamicDropdown, json, keyValueList } from '../sdk/index.js';
import { type Connection, mysqlAuth, withConnection } from './connection.js';
import { equalities, quoteIdentifier, quoteTable, tableParts } from './identifiers.js';
import { headerOf, outputOf, runStatement, selectRows, writeOutput } from './statements.js';
import { jsonSafe } from './values.js';

export const table = dynamicDropdown({
  label: 'Table',
  required: true,
  dynamicData: 'listTables',
  description: 'A table of the connection’s database, or database.table.',
  acceptsVariables: true,
});

export const executeQuery = defineAction({
  key: 'executeQuery',
  name: 'Execute query',
  description: 'Runs one SQL statement; each ? takes its value from the parameters, never from the text.',
  arguments: {
    query: code({ label: 'SQL statement', language: 'sql', required: true, acceptsVariables: true }),
    params: json({
      label: 'Parameters',
      description: 'A JSON array with the values of the ? placeholders, in order.',
      placeholder: '["alice", 42]',
      acceptsVariables: true,
      schema: v.array(v.unknown(), 'must be a JSON array.'),
    }),
  },
  async run(ctx) {
    const { query, params } = ctx.parameters;
    return withConnection(ctx, mysqlAuth.read(ctx.auth), async (connection) =>
      outputOf(await runStatement(connection, query, params ?? [])),
    );
  },
});

/** The columns of the table's primary key, and which of them is AUTO_INCREMENT. */
const primaryKeyOf = async (connection: Connection, name: string) => {
  const { database, table: tableName } = tableParts(name);
  const rows = await selectRows(
    connection,
    `SELECT COLUMN_NAME AS name, EXTRA AS extra FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ? AND COLUMN_KEY = 'PRI'
      ORDER BY ORDINAL_POSITION`,
    [database, tableName],
  );
  return (rows as { name: string; extra: string }[]).map((c) => ({
    name: c.name,
    autoIncrement: /auto_increment/i.test(c.extra),
  }));
};

/**
 * The row just inserted, read back by its primary key: the AUTO_INCREMENT column takes the
 * insert id, the others the values given. Null when the key is not known that way (no primary key,
 * or a key column left to its default).
 */
const insertedRow = async (
  connection: Connection,
  name: string,
  values: readonly { key: string; value: string }[],
  insertId: number | string,
): Promise<unknown> => {
  const key = await primaryKeyOf(connection, name);
  if (key.length === 0) return null;
  const lookup: unknown[] = [];
  for (const column of key) {
    const given = values.find((c) => c.key.toLowerCase() === column.name.toLowerCase());
    if (given) lookup.push(given.value);
    else if (column.autoIncrement && insertId !== 0 && insertId !== '0') lookup.push(insertId);
    else return null;
  }
  const where = key.map((c) => `${quoteIdentifier(c.name)} = ?`).join(' AND ');
  const [row] = await selectRows(connection, `SELECT * FROM ${quoteTable(name)} WHERE ${where} LIMIT 1`, lookup);
  return row ? jsonSafe(row) : null;
};

export const insertRow = defineAction({
  key: 'insertRow',
  name: 'Insert row',
  description: 'Inserts a row; returns the insert id and the row as stored when its primary key is known.',
  arguments: {
    table,
    values: keyValueList({ label: 'Columns and values', required: true, acceptsVariables: true }),
  },
  async run(ctx) {
    const { table: name, values } = ctx.parameters;
    const columns = values.map((c) => quoteIdentifier(c.key)).join(', ');
    const statement = `INSERT INTO ${quoteTable(name)} (${columns}) VALUES (${values.map(() => '?').join(', ')})`;
    return withConnection(ctx, mysqlAuth.read(ctx.auth), async (connection) => {
      const header = headerOf(
        await runStatement(
          connection,
          statement,
          values.map((c) => c.value),
        ),
      );
      const { insertId, affectedRows } = writeOutput(header);
      return { insertId, affectedRows, row: await insertedRow(connection, name, values, header.insertId) };
    });
  },
});

const where = keyValueList({
  label: 'Where',
  description: 'Rows whose columns equal all of these values. Empty only with "All rows".',
  acceptsVariables: true,
});
const allRows = boolean({
  label: 'All rows',
  default: false,
  description: 'Needed to run without a Where: the statement then touches every row of the table.',
});

/** An empty Where is refused unless `allRows` says that every row is meant. */
const whereOrAllRows = (parameters: { where?: readonly unknown[] | undefined; allRows: boolean }) =>
  (parameters.where ?? []).length === 0 && !parameters.allRows
    ? { where: 'is required unless "All rows" is on.' }
    : null;

const whereClause = (conditions: readonly { key: string; value: string }[]) =>
  conditions.length === 0 ? '' : ` WHERE ${equalities(conditions, ' AND ')}`;

export const updateRows = defineAction({
  key: 'updateRows',
  name: 'Update rows',
  description: 'Sets columns of the rows that match; returns how many matched and how many changed.',
  arguments: {
    table,
    values: keyValueList({ label: 'Columns and new values', required: true, acceptsVariables: true }),
    where,
    allRows,
  },
  check: whereOrAllRows,
  async run(ctx) {
    const { table: name, values, where: conditions = [] } = ctx.parameters;
    const statement = `UPDATE ${quoteTable(name)} SET ${equalities(values, ', ')}${whereClause(conditions)}`;
    const params = [...values, ...conditions].map((c) => c.value);
    return withConnection(ctx, mysqlAuth.read(ctx.auth), async (connection) => {
      const { affectedRows, changedRows } = headerOf(await runStatement(connection, statement, params));
      return { affectedRows, changedRows };
    });
  },
});

export const deleteRows = defineAction({
  key: 'deleteRows',
  name: 'Delete rows',
  description: 'Deletes the rows that match; returns how many.',
  arguments: { table, where, allRows },
  check: whereOrAllRows,
  async run(ctx) {
    const { table: name, where: conditions = [] } = ctx.parameters;
    const statement = `DELETE FROM ${quoteTable(name)}${whereClause(conditions)}`;
    return withConnection(ctx, mysqlAuth.read(ctx.auth), async (connection) => {
      const { affectedRows } = headerOf(
        await runStatement(
          connection,
          statement,
          conditions.map((c) => c.value),
        ),
      );
      return { affectedRows };
    });
  },
});
