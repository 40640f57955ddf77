import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BlockedAddressError, TemporaryError } from '../sdk/index.js';

/** A command that could not be started: a wrong name or path is the connection's to mend. */
const SPAWN_CODES = new Set(['ENOENT', 'EACCES', 'ENOTDIR']);

const causes = (error: unknown): Error[] => {
  const chain: Error[] = [];
  for (let at = error; at instanceof Error && chain.length < 10; at = at.cause) chain.push(at);
  return chain;
};

const codeOf = (error: Error) => (error as { code?: unknown }).code;

/** The network guard refused the address, perhaps under the fetch's own error. */
export const isBlocked = (error: unknown) => causes(error).some((e) => e instanceof BlockedAddressError);

/** The deepest reason in an error's chain (undici's `fetch failed` hides `connect ECONNREFUSED ...`). */
export const reasonOf = (error: unknown) => {
  const chain = causes(error);
  return chain.at(-1)?.message ?? String(error);
};

const withSaid = (reason: string, said: string) => (said ? `${reason} The server said: ${said}` : reason);

const httpFailure = (status: number | undefined, message: string) => {
  const answered = status !== undefined && status > 0 ? ` (HTTP ${status})` : '';
  if (status === undefined || status === 408 || status === 429 || status >= 500)
    return new TemporaryError(`The MCP server could not serve the request${answered}: ${message}`);
  return new Error(`The MCP server refused the connection${answered}: ${message}`);
};

/**
 * What a failure with the server is to the engine: one that may pass (closed, too slow, busy) a
 * TemporaryError, retried; one it refused (its answer to bad credentials or a bad request) an
 * Error; the guard's refusal as it is. An unreachable server is a TemporaryError already (the
 * client's fetch makes it one). `said` is what a command printed on its standard error, which
 * often says why it stopped. Other errors (this app's own) pass unchanged.
 */
export const mcpFailure = (error: unknown, said: string): unknown => {
  if (error instanceof TemporaryError) return error;
  const chain = causes(error);
  const blocked = chain.find((e) => e instanceof BlockedAddressError);
  if (blocked) return blocked;
  if (error instanceof StreamableHTTPError || error instanceof SseError)
    return httpFailure(error.code, error.message.replace(/^(Streamable HTTP|SSE) error: /, ''));
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      const limit = (error.data as { timeout?: unknown } | undefined)?.timeout;
      const within = typeof limit === 'number' ? ` within ${limit / 1000} s` : ' in time';
      return new TemporaryError(`The MCP server did not answer${within}.`);
    }
    if (error.code === ErrorCode.ConnectionClosed)
      return new TemporaryError(withSaid('The MCP server closed the connection.', said));
    return new Error(`The MCP server refused the request: ${error.message}`);
  }
  const spawn = chain.find((e) => SPAWN_CODES.has(String(codeOf(e))) && 'syscall' in e);
  if (spawn) return new Error(`Could not start the MCP server's command: ${spawn.message}`);
  return error;
};
