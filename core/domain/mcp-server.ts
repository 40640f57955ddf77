/**
 * MCP servers (Automatisch's `/api/v1/mcp-servers`): a user's set of tools that MCP clients reach
 * at `<public URL>/api/v1/mcp/<token>`. The token is the only credential: shown once, stored as a
 * hash, and replaced (the old one refused at once) by rotating it.
 */
export interface McpServer {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * `app`: one action of an app (`appKey`, `action`), run with the caller's connection of that app
 * (`connectionId`, null for apps without one). `flow`: a flow that starts with the `mcp` app's
 * `mcpTool` trigger (`flowId`); `action` holds the tool's name as the trigger named it when the
 * tool was added (Automatisch's column, unique per server as there).
 */
export type McpToolType = 'app' | 'flow';

export interface McpTool {
  readonly id: string;
  readonly mcpServerId: string;
  readonly type: McpToolType;
  readonly appKey: string | null;
  readonly action: string;
  readonly connectionId: string | null;
  readonly flowId: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * `running`: a flow tool's run outlived the call's time limit; the call answered with the run's
 * id and the run goes on (its execution tells how it ended).
 */
export type McpToolExecutionStatus = 'success' | 'failure' | 'running';

/** One call of a tool by an MCP client: what it was called with, and what it answered. */
export interface McpToolExecution {
  readonly id: string;
  readonly mcpToolId: string;
  readonly dataIn: unknown;
  readonly dataOut: unknown;
  readonly status: McpToolExecutionStatus;
  readonly errorDetails: Readonly<Record<string, unknown>> | null;
  /** The run a flow tool started; null for an app tool. */
  readonly executionId: string | null;
  readonly createdAt: Date;
}

/** The trigger a flow must start with to be an MCP tool, and the action whose output answers the call. */
export const MCP_TOOL_TRIGGER = { appKey: 'mcp', key: 'mcpTool' } as const;
export const MCP_RESPOND_WITH = { appKey: 'mcp', key: 'respondWith' } as const;

/** A server's name: what its owner calls it. */
export const MCP_SERVER_NAME_MAX = 255;
