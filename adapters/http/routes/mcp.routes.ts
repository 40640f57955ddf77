import { type Context, Hono } from 'hono';
import { clientAddress } from '../client-address.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { parseJsonText } from '../json-text.js';
import { bodyText } from '../request-body.js';
import { unwrap } from '../respond.js';

export const MCP_ROUTE = '/mcp/:mcpServerToken';

/**
 * Conveyor as an MCP server (Automatisch's `/api/v1/mcp/:mcpServerToken`), over Streamable HTTP
 * with the SDK's web-standard transport. Stateless: every request opens the server by its token
 * and gets a server and transport of its own, answered as JSON, so that any process of the
 * instance answers any request, and a rotated token is refused from the next request on. Without
 * sessions there is no stream to listen on and nothing to end: GET and DELETE (any method but
 * POST) answer 405, as the specification has a server without them answer.
 */
export const mcpRoutes = (deps: HttpDeps) => {
  const open = async (c: Context<AppEnv>) =>
    unwrap(
      await deps.useCases.openMcpServer(
        c.req.param('mcpServerToken') ?? '',
        clientAddress(c, deps.settings.trustedProxies),
      ),
    );
  const notAllowed = async (c: Context<AppEnv>) => {
    await open(c);
    const body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };
    return c.json(body, 405, { allow: 'POST' });
  };
  return new Hono<AppEnv>()
    .post(MCP_ROUTE, async (c) => {
      const server = await open(c);
      const parsedBody = parseJsonText(await bodyText(c));
      const { answerMcpRequest } = await import('../mcp-sdk-server.js');
      return answerMcpRequest(deps, server, c.req.raw, parsedBody);
    })
    .all(MCP_ROUTE, notAllowed);
};
