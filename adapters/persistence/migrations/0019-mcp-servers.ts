import { randomUUID } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * MCP servers (Automatisch's tables): a user's server, reached by a token kept only as its hash;
 * its tools (an app's action with a connection, or a flow), one per `action` per server as in
 * Automatisch; and the calls of its tools. A tool goes with its server, connection or flow; its
 * calls go with it; a call's run may be pruned before the call is. The Admin role is given the
 * `McpServer` permissions, as Automatisch seeds them (administrators hold every permission anyway;
 * the rows are what a listing of the role shows).
 */
export const mcpServers: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('mcp_servers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('mcp_servers_user_created_index')
      .on('mcp_servers')
      .columns(['user_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('mcp_tools')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('mcp_server_id', 'text', (c) => c.notNull().references('mcp_servers.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('app_key', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('connection_id', 'text', (c) => c.references('connections.id').onDelete('cascade'))
      .addColumn('flow_id', 'text', (c) => c.references('flows.id').onDelete('cascade'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint('mcp_tools_server_action_unique', ['mcp_server_id', 'action'])
      .execute();
    await db.schema
      .createTable('mcp_tool_executions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('mcp_tool_id', 'text', (c) => c.notNull().references('mcp_tools.id').onDelete('cascade'))
      .addColumn('data_in', t.json)
      .addColumn('data_out', t.json)
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('error_details', t.json)
      .addColumn('execution_id', 'text', (c) => c.references('executions.id').onDelete('set null'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('mcp_tool_executions_tool_created_index')
      .on('mcp_tool_executions')
      .columns(['mcp_tool_id', 'created_at'])
      .execute();
    const admin = await db.selectFrom('roles').select('id').where('name', '=', 'Admin').executeTakeFirst();
    if (!admin) return;
    const now = new Date().toISOString();
    await db
      .insertInto('permissions')
      .values(
        ['read', 'manage'].map((action) => ({
          id: randomUUID(),
          role_id: admin.id,
          action,
          subject: 'McpServer',
          conditions: JSON.stringify([]),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  },
};
