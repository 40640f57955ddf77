import * as v from 'valibot';
import { code, defineAction, json, keyValueList, text } from '../sdk/index.js';
import { postgresAuth, withClient } from './connection.js';
import { equalities, quoteIdentifier, quoteTable } from './identifiers.js';

const table = text({ label: 'Table', required: true, placeholder: 'public.orders', acceptsVariables: true });

const rowsOf = (result: { rows: unknown[]; rowCount: number | null }) => ({
  rows: result.rows,
  rowCount: result.rowCount ?? result.rows.length,
});

export const sqlQuery = defineAction({
  key: 'SQLQuery',
  name: 'SQL query',
  description: 'Runs a SQL statement; $1, $2... take their values from the parameters, never from the text.',
  arguments: {
    queryStatement: code({ label: 'SQL statement', language: 'sql', required: true, acceptsVariables: true }),
    params: json({
      label: 'Parameters',
      description: 'A JSON array with the values of $1, $2...',
      placeholder: '["alice", 42]',
      acceptsVariables: true,
      schema: v.array(v.unknown(), 'must be a JSON array.'),
    }),
  },
  async run(ctx) {
    const { queryStatement, params } = ctx.parameters;
    const connection = postgresAuth.read(ctx.auth);
    return withClient(ctx, connection, async (client) =>
      rowsOf(await client.query({ text: queryStatement, values: params ?? [] })),
    );
  },
});

export const insert = defineAction({
  key: 'insert',
  name: 'Insert row',
  description: 'Inserts a row and returns it.',
  arguments: {
    table,
    values: keyValueList({ label: 'Columns and values', required: true, acceptsVariables: true }),
  },
  async run(ctx) {
    const { table: name, values } = ctx.parameters;
    const columns = values.map((c) => quoteIdentifier(c.key)).join(', ');
    const placeholders = values.map((_, i) => `$${i + 1}`).join(', ');
    const statement = `INSERT INTO ${quoteTable(name)} (${columns}) VALUES (${placeholders}) RETURNING *`;
    return withClient(ctx, postgresAuth.read(ctx.auth), async (client) =>
      rowsOf(
        await client.query(
          statement,
          values.map((c) => c.value),
        ),
      ),
    );
  },
});

const where = keyValueList({
  label: 'Where',
  required: true,
  description: 'Rows whose columns equal all of these values.',
  acceptsVariables: true,
});

export const update = defineAction({
  key: 'update',
  name: 'Update rows',
  description: 'Sets columns of the rows that match and returns them.',
  arguments: {
    table,
    values: keyValueList({ label: 'Columns and new values', required: true, acceptsVariables: true }),
    where,
  },
  async run(ctx) {
    const { table: name, values, where: conditions } = ctx.parameters;
    const statement =
      `UPDATE ${quoteTable(name)} SET ${equalities(values, 0, ', ')} ` +
      `WHERE ${equalities(conditions, values.length, ' AND ')} RETURNING *`;
    const parameters = [...values, ...conditions].map((c) => c.value);
    return withClient(ctx, postgresAuth.read(ctx.auth), async (client) =>
      rowsOf(await client.query(statement, parameters)),
    );
  },
});

export const remove = defineAction({
  key: 'delete',
  name: 'Delete rows',
  description: 'Deletes the rows that match and returns them.',
  arguments: { table, where },
  async run(ctx) {
    const { table: name, where: conditions } = ctx.parameters;
    const statement = `DELETE FROM ${quoteTable(name)} WHERE ${equalities(conditions, 0, ' AND ')} RETURNING *`;
    return withClient(ctx, postgresAuth.read(ctx.auth), async (client) =>
      rowsOf(
        await client.query(
          statement,
          conditions.map((c) => c.value),
        ),
      ),
    );
  },
});
