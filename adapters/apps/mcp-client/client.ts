import type { AppContext } from '../sdk/index.js';
import type { McpConnection, McpSession, McpSettings } from './session-types.js';

export * from './session-types.js';

type ClientContext = Pick<AppContext<unknown, unknown>, 'fetch' | 'signal'>;

/**
 * Opens a session with the connection's server, runs `work` in it and always closes it (see
 * session.ts). The MCP SDK is loaded on the first use: it is big, and most instances never connect
 * to an MCP server.
 */
export const withMcpClient = async <T>(
  ctx: ClientContext,
  connection: McpConnection,
  settings: McpSettings,
  work: (session: McpSession) => Promise<T>,
): Promise<T> => (await import('./session.js')).withMcpSession(ctx, connection, settings, work);
