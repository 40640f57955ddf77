/** What an MCP session is made of: shared by the light client.ts and the SDK-loading session.ts. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AppContext } from '../sdk/index.js';

/** What the instance decides for every MCP connection. */
export interface McpSettings {
  /** Connections may run a command on the server (`MCP_STDIO_ALLOWED`); off, only HTTP servers. */
  readonly stdioAllowed: boolean;
  readonly timeouts: McpTimeouts;
}

export interface McpTimeouts {
  /** Starting the session (the handshake, a command's start). */
  readonly connectMs: number;
  /** Listing the tools. */
  readonly listMs: number;
  /** One tool call. */
  readonly callMs: number;
}

export const DEFAULT_MCP_TIMEOUTS: McpTimeouts = { connectMs: 15_000, listMs: 30_000, callMs: 120_000 };

/** The connection's fields, as `mcpAuth` parses them. */
export interface McpConnection {
  readonly transport: 'http' | 'stdio';
  readonly serverUrl?: string | undefined;
  readonly headerName: string;
  readonly headerValue?: string | undefined;
  readonly command?: string | undefined;
  readonly args?: string | undefined;
}

/** An open session with one server, for one use. */
export interface McpSession {
  readonly client: Client;
  readonly signal: AbortSignal;
  readonly timeouts: McpTimeouts;
}

/** Runs `work` in a session with the server of the context's connection. */
export type UseServer = <T>(ctx: AppContext<unknown>, work: (session: McpSession) => Promise<T>) => Promise<T>;

export const STDIO_REFUSED =
  'This Conveyor instance does not run commands for MCP servers. An administrator can allow them by setting MCP_STDIO_ALLOWED=true.';
