import { type DraftContext, defineApp } from '../sdk/index.js';
import { deleteRows, executeQuery, insertRow, updateRows } from './actions.js';
import { mysqlAuth, withConnection } from './connection.js';
import { icon } from './icon.js';
import { tableParts } from './identifiers.js';
import { selectRows } from './statements.js';
import { newRow, updatedRow } from './triggers.js';

/** The tables of the connection's database, by name. */
const listTables = async (ctx: DraftContext) =>
  withConnection(ctx, mysqlAuth.read(ctx.auth), async (connection) => {
    const rows = await selectRows(
      connection,
      'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME',
      [],
    );
    return (rows as { name: string }[]).map((row) => ({ name: row.name, value: row.name }));
  });

/** The columns of the step's table, in their order; none before a table is chosen. */
const listColumns = async (ctx: DraftContext) => {
  const name = ctx.parameters.table;
  if (typeof name !== 'string' || name.trim() === '') return [];
  const { database, table } = tableParts(name);
  return withConnection(ctx, mysqlAuth.read(ctx.auth), async (connection) => {
    const rows = await selectRows(
      connection,
      `SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
      [database, table],
    );
    return (rows as { name: string }[]).map((row) => ({ name: row.name, value: row.name }));
  });
};

export const mysqlApp = defineApp({
  key: 'mysql',
  name: 'MySQL / MariaDB',
  description: 'Query and change a MySQL or MariaDB database, and start flows from new or updated rows.',
  icon,
  primaryColor: '#00758f',
  categories: ['data-and-databases'],
  version: 1,
  auth: mysqlAuth,
  triggers: [newRow, updatedRow],
  actions: [executeQuery, insertRow, updateRows, deleteRows],
  dynamicData: { listTables, listColumns },
});
