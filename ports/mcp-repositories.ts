import type { McpServer, McpTool, McpToolExecution } from '../core/domain/mcp-server.js';
import type { Page, PageRequest } from '../core/domain/page.js';

/** MCP servers (`mcp_servers`), each owned by a user; the token is kept only as its hash. */
export interface McpServerRepository {
  insert(
    server: Omit<McpServer, 'createdAt' | 'updatedAt'> & { readonly tokenHash: string; readonly now: Date },
  ): Promise<McpServer>;
  findById(id: string): Promise<McpServer | null>;
  /** The server whose token has this hash, if its owner is still a user. */
  findByTokenHash(tokenHash: string): Promise<McpServer | null>;
  /** The user's servers, newest first. */
  listByUser(userId: string): Promise<McpServer[]>;
  rename(id: string, name: string, now: Date): Promise<void>;
  /** Replaces the token's hash: the old token is refused from now on. */
  replaceToken(id: string, tokenHash: string, now: Date): Promise<void>;
  /** With its tools and their executions. */
  delete(id: string): Promise<void>;
}

/** The tools of MCP servers (`mcp_tools`). */
export interface McpToolRepository {
  /** The server's tools, oldest first. */
  listByServer(mcpServerId: string): Promise<McpTool[]>;
  /** Adds the tool; a `unique.violation` (through the unit of work) when the server has its `action` already. */
  insert(tool: Omit<McpTool, 'createdAt' | 'updatedAt'> & { readonly now: Date }): Promise<McpTool>;
  /** With its executions; false when the server has no such tool. */
  delete(mcpServerId: string, toolId: string): Promise<boolean>;
}

/** Calls of MCP tools (`mcp_tool_executions`). */
export interface McpToolExecutionRepository {
  insert(execution: Omit<McpToolExecution, 'createdAt'> & { readonly now: Date }): Promise<McpToolExecution>;
  /** The calls of the server's tools, newest first. */
  listByServer(mcpServerId: string, page: PageRequest): Promise<Page<McpToolExecution>>;
}
