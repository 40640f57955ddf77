import type { Selectable } from 'kysely';
import type {
  McpServer,
  McpTool,
  McpToolExecution,
  McpToolExecutionStatus,
  McpToolType,
} from '../../../core/domain/mcp-server.js';
import type {
  McpServerRepository,
  McpToolExecutionRepository,
  McpToolRepository,
} from '../../../ports/mcp-repositories.js';
import type { McpServersTable, McpToolExecutionsTable, McpToolsTable } from '../schema.js';
import type { Executor } from './executor.js';

export const createMcpServerRepository = ({ db, codec }: Executor): McpServerRepository => {
  const toServer = (row: Selectable<McpServersTable>): McpServer => ({
    id: row.id,
    userId: row.user_id,
    name: row.name,
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });
  // A removed user's servers answer nobody.
  const live = () =>
    db
      .selectFrom('mcp_servers')
      .innerJoin('users', 'users.id', 'mcp_servers.user_id')
      .selectAll('mcp_servers')
      .where('users.deleted_at', 'is', null);

  return {
    async insert(server) {
      const now = codec.timestamp(server.now);
      await db
        .insertInto('mcp_servers')
        .values({
          id: server.id,
          user_id: server.userId,
          name: server.name,
          token_hash: server.tokenHash,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const at = codec.readTimestamp(now);
      return { id: server.id, userId: server.userId, name: server.name, createdAt: at, updatedAt: at };
    },

    async findById(id) {
      const row = await live().where('mcp_servers.id', '=', id).executeTakeFirst();
      return row ? toServer(row) : null;
    },

    async findByTokenHash(tokenHash) {
      const row = await live().where('mcp_servers.token_hash', '=', tokenHash).executeTakeFirst();
      return row ? toServer(row) : null;
    },

    async listByUser(userId) {
      const rows = await db
        .selectFrom('mcp_servers')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toServer);
    },

    async rename(id, name, now) {
      await db
        .updateTable('mcp_servers')
        .set({ name, updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .execute();
    },

    async replaceToken(id, tokenHash, now) {
      await db
        .updateTable('mcp_servers')
        .set({ token_hash: tokenHash, updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .execute();
    },

    async delete(id) {
      // Spelled out rather than left to the foreign keys' cascades, which SQLite applies only
      // when its connection has them switched on.
      const tools = db.selectFrom('mcp_tools').select('id').where('mcp_server_id', '=', id);
      await db.deleteFrom('mcp_tool_executions').where('mcp_tool_id', 'in', tools).execute();
      await db.deleteFrom('mcp_tools').where('mcp_server_id', '=', id).execute();
      await db.deleteFrom('mcp_servers').where('id', '=', id).execute();
    },
  };
};

export const createMcpToolRepository = ({ db, codec }: Executor): McpToolRepository => {
  const toTool = (row: Selectable<McpToolsTable>): McpTool => ({
    id: row.id,
    mcpServerId: row.mcp_server_id,
    type: row.type as McpToolType,
    appKey: row.app_key,
    action: row.action,
    connectionId: row.connection_id,
    flowId: row.flow_id,
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });

  return {
    async listByServer(mcpServerId) {
      const rows = await db
        .selectFrom('mcp_tools')
        .selectAll()
        .where('mcp_server_id', '=', mcpServerId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toTool);
    },

    async insert(tool) {
      const now = codec.timestamp(tool.now);
      const row = {
        id: tool.id,
        mcp_server_id: tool.mcpServerId,
        type: tool.type,
        app_key: tool.appKey,
        action: tool.action,
        connection_id: tool.connectionId,
        flow_id: tool.flowId,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('mcp_tools').values(row).execute();
      return toTool(row);
    },

    async delete(mcpServerId, toolId) {
      const found = await db
        .selectFrom('mcp_tools')
        .select('id')
        .where('id', '=', toolId)
        .where('mcp_server_id', '=', mcpServerId)
        .executeTakeFirst();
      if (!found) return false;
      await db.deleteFrom('mcp_tool_executions').where('mcp_tool_id', '=', toolId).execute();
      await db.deleteFrom('mcp_tools').where('id', '=', toolId).execute();
      return true;
    },
  };
};

export const createMcpToolExecutionRepository = ({ db, codec }: Executor): McpToolExecutionRepository => {
  const store = (value: unknown) => (value === undefined || value === null ? null : codec.json(value));
  const read = (value: unknown) => (value === null || value === undefined ? null : codec.readJson<unknown>(value));
  const toExecution = (row: Selectable<McpToolExecutionsTable>): McpToolExecution => ({
    id: row.id,
    mcpToolId: row.mcp_tool_id,
    dataIn: read(row.data_in),
    dataOut: read(row.data_out),
    status: row.status as McpToolExecutionStatus,
    errorDetails: read(row.error_details) as McpToolExecution['errorDetails'],
    executionId: row.execution_id,
    createdAt: codec.readTimestamp(row.created_at),
  });

  return {
    async insert(execution) {
      const row = {
        id: execution.id,
        mcp_tool_id: execution.mcpToolId,
        data_in: store(execution.dataIn),
        data_out: store(execution.dataOut),
        status: execution.status,
        error_details: store(execution.errorDetails),
        execution_id: execution.executionId,
        created_at: codec.timestamp(execution.now),
      };
      await db.insertInto('mcp_tool_executions').values(row).execute();
      return toExecution(row);
    },

    async listByServer(mcpServerId, { page, perPage }) {
      const ofServer = () =>
        db
          .selectFrom('mcp_tool_executions')
          .innerJoin('mcp_tools', 'mcp_tools.id', 'mcp_tool_executions.mcp_tool_id')
          .where('mcp_tools.mcp_server_id', '=', mcpServerId);
      const { count } = await ofServer()
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow();
      const rows = await ofServer()
        .selectAll('mcp_tool_executions')
        .orderBy('mcp_tool_executions.created_at', 'desc')
        .orderBy('mcp_tool_executions.id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { items: rows.map(toExecution), total: codec.readInt(count as string | number), page, perPage };
    },
  };
};
