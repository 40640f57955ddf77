import type { McpServerWithToken } from '../../../core/application/mcp-servers/manage-mcp-servers.js';
import type { McpServer, McpTool, McpToolExecution } from '../../../core/domain/mcp-server.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

/** Automatisch's MCP server serializer, without its token: the token is shown only when made. */
export const presentMcpServer = (server: McpServer): Answer<'McpServer'> => ({
  id: server.id,
  name: server.name,
  createdAt: epochMs(server.createdAt),
  updatedAt: epochMs(server.updatedAt),
});

/** A server just made or given a new token: the token and the URL with it, this once. */
export const presentMcpServerWithToken = ({
  server,
  token,
  serverUrl,
}: McpServerWithToken): Answer<'NewMcpServer'> => ({
  ...presentMcpServer(server),
  token,
  serverUrl,
});

export const presentMcpTool = (tool: McpTool): Answer<'McpTool'> => ({
  id: tool.id,
  mcpServerId: tool.mcpServerId,
  type: tool.type,
  flowId: tool.flowId,
  connectionId: tool.connectionId,
  appKey: tool.appKey,
  action: tool.action,
  createdAt: epochMs(tool.createdAt),
  updatedAt: epochMs(tool.updatedAt),
});

/** Automatisch's serializer; a call is made once, so its `updatedAt` is its `createdAt`. */
export const presentMcpToolExecution = (execution: McpToolExecution): Answer<'McpToolExecution'> => ({
  id: execution.id,
  mcpToolId: execution.mcpToolId,
  status: execution.status,
  dataIn: execution.dataIn,
  dataOut: execution.dataOut,
  errorDetails: execution.errorDetails,
  executionId: execution.executionId,
  createdAt: epochMs(execution.createdAt),
  updatedAt: epochMs(execution.createdAt),
});
