import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type AppContext, TemporaryError } from '../sdk/index.js';
import { isBlocked, mcpFailure, reasonOf } from './failures.js';
import { type McpConnection, type McpSession, type McpSettings, STDIO_REFUSED } from './session-types.js';

const CLIENT_INFO = { name: 'conveyor', version: '1.0.0' };

/** How long closing may wait for the server to end an HTTP session before the requests are cut. */
const TERMINATE_MS = 2_000;

/** The command's standard error kept to explain a failure: its last lines. */
const STDERR_TAIL_CHARS = 2_000;

type ClientContext = Pick<AppContext<unknown, unknown>, 'fetch' | 'signal'>;

const linesOf = (text: string | undefined) =>
  (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** What a command's server printed last on its standard error, to add to a failure's reason. */
const stderrTail = (transport: StdioClientTransport) => {
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  return () => tail.trim();
};

interface Opened {
  readonly transport: Transport;
  /** What the server said on the side (a command's standard error), '' when nothing. */
  readonly said: () => string;
}

const stdioTransport = (connection: McpConnection, settings: McpSettings): Opened => {
  if (!settings.stdioAllowed) throw new Error(STDIO_REFUSED);
  if (!connection.command) throw new Error('The connection names no command to run.');
  // The SDK passes the command only a few harmless variables of the instance's (PATH, HOME...),
  // never its secrets.
  const transport = new StdioClientTransport({
    command: connection.command,
    args: linesOf(connection.args),
    stderr: 'pipe',
  });
  return { transport, said: stderrTail(transport) };
};

const httpHeaders = (connection: McpConnection): Record<string, string> =>
  connection.headerValue ? { [connection.headerName]: connection.headerValue } : {};

/** The server's address; every request goes through the instance's guarded fetch. */
const serverUrlOf = (connection: McpConnection) => {
  if (!connection.serverUrl) throw new Error('The connection names no server URL.');
  return new URL(connection.serverUrl);
};

/**
 * The instance's guarded fetch, its failures to reach the server (a refused or broken connection,
 * an unknown name) made TemporaryErrors, as the HTTP client's are; the guard's refusal and an
 * abort pass as they are.
 */
const fetchFor =
  (ctx: ClientContext): typeof fetch =>
  async (input, init) => {
    try {
      return await ctx.fetch(input, init);
    } catch (error) {
      if (init?.signal?.aborted || ctx.signal.aborted || isBlocked(error)) throw error;
      throw new TemporaryError(`Could not reach the MCP server: ${reasonOf(error)}`, { cause: error });
    }
  };

const streamableTransport = (ctx: ClientContext, connection: McpConnection): Opened => ({
  transport: new StreamableHTTPClientTransport(serverUrlOf(connection), {
    fetch: fetchFor(ctx),
    requestInit: { headers: httpHeaders(connection) },
    // A session lives for one use: a dropped stream is not reopened behind the caller's back.
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1_000,
      maxReconnectionDelay: 1_000,
      reconnectionDelayGrowFactor: 1,
    },
  }),
  said: () => '',
});

const sseTransport = (ctx: ClientContext, connection: McpConnection): Opened => ({
  transport: new SSEClientTransport(serverUrlOf(connection), {
    fetch: fetchFor(ctx),
    requestInit: { headers: httpHeaders(connection) },
  }),
  said: () => '',
});

/** Servers of the protocol's 2024 revision answer a POST to their SSE endpoint so. */
const speaksOnlySse = (error: unknown) =>
  error instanceof StreamableHTTPError && (error.code === 404 || error.code === 405);

const connect = async (opened: Opened, ctx: ClientContext, settings: McpSettings): Promise<Client> => {
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(opened.transport, { signal: ctx.signal, timeout: settings.timeouts.connectMs });
    return client;
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
};

const close = async (client: Client, transport: Transport) => {
  // Tells an HTTP server the session is over, so that it frees it now rather than at its time-out.
  if (transport instanceof StreamableHTTPClientTransport) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      transport.terminateSession().catch(() => {}),
      new Promise((resolve) => {
        timer = setTimeout(resolve, TERMINATE_MS);
      }),
    ]);
    clearTimeout(timer);
  }
  // Cuts what is still under way and, for a command, ends its process.
  await client.close().catch(() => {});
};

/**
 * Opens a session with the connection's server, runs `work` in it and always closes it: sessions
 * live for one use (a verification, a list, a call), so none is left open between runs. Failures
 * come out as the app kit's errors: a server that could not be reached or answered too late is a
 * TemporaryError, one that refused is an Error with its reason.
 */
export const withMcpSession = async <T>(
  ctx: ClientContext,
  connection: McpConnection,
  settings: McpSettings,
  work: (session: McpSession) => Promise<T>,
): Promise<T> => {
  let opened: Opened | undefined;
  let client: Client | undefined;
  try {
    if (connection.transport === 'stdio') {
      opened = stdioTransport(connection, settings);
      client = await connect(opened, ctx, settings);
    } else {
      opened = streamableTransport(ctx, connection);
      try {
        client = await connect(opened, ctx, settings);
      } catch (error) {
        if (!speaksOnlySse(error)) throw error;
        opened = sseTransport(ctx, connection);
        client = await connect(opened, ctx, settings);
      }
    }
    return await work({ client, signal: ctx.signal, timeouts: settings.timeouts });
  } catch (error) {
    throw mcpFailure(error, opened?.said() ?? '');
  } finally {
    if (client && opened) await close(client, opened.transport);
  }
};
