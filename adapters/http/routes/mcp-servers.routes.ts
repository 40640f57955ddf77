import { type Context, Hono } from 'hono';
import type { AppEnv, HttpDeps } from '../context.js';
import { sendMany, sendNoContent, sendOne } from '../envelope.js';
import { requireAccess } from '../middleware/require-access.js';
import { requireActor } from '../middleware/require-actor.js';
import { pageQuery, sendPage } from '../pagination.js';
import {
  presentMcpServer,
  presentMcpServerWithToken,
  presentMcpTool,
  presentMcpToolExecution,
} from '../presenters/mcp-server.presenter.js';
import { unwrap } from '../respond.js';
import { mcpServerSchema, newMcpToolSchema } from '../schemas/mcp-servers.schemas.js';
import { idParam, jsonBody } from '../validation.js';

/**
 * The caller's own MCP servers (Automatisch's `/mcp-servers` routes), their tools and the calls
 * made of them. The token is in the answers of creating a server and rotating its token only.
 */
export const mcpServerRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const may = requireAccess(deps);
  const id = (c: Context) => idParam(c, 'mcpServerId', 'McpServer');
  const own = (action: 'read' | 'manage') => may((c) => ({ to: 'mcp-server', id: id(c), action }));
  return new Hono<AppEnv>()
    .use('/mcp-servers', requireActor(deps))
    .use('/mcp-servers/*', requireActor(deps))
    .get('/mcp-servers', async (c) =>
      sendMany(c, 'McpServer', unwrap(await useCases.listMcpServers(c.var.actor)).map(presentMcpServer)),
    )
    .post('/mcp-servers', may({ to: 'permission', action: 'manage', subject: 'McpServer' }), async (c) => {
      const created = unwrap(await useCases.createMcpServer(c.var.actor, await jsonBody(c, mcpServerSchema)));
      return sendOne(c, 'McpServer', presentMcpServerWithToken(created), 201);
    })
    .get('/mcp-servers/:mcpServerId', async (c) =>
      sendOne(c, 'McpServer', presentMcpServer(unwrap(await useCases.getMcpServer(c.var.actor, id(c))))),
    )
    .patch('/mcp-servers/:mcpServerId', own('manage'), async (c) => {
      const input = await jsonBody(c, mcpServerSchema);
      return sendOne(
        c,
        'McpServer',
        presentMcpServer(unwrap(await useCases.updateMcpServer(c.var.actor, id(c), input))),
      );
    })
    .delete('/mcp-servers/:mcpServerId', async (c) => {
      unwrap(await useCases.deleteMcpServer(c.var.actor, id(c)));
      return sendNoContent(c);
    })
    .post('/mcp-servers/:mcpServerId/rotate-token', async (c) => {
      const rotated = unwrap(await useCases.rotateMcpServerToken(c.var.actor, id(c)));
      return sendOne(c, 'McpServer', presentMcpServerWithToken(rotated));
    })
    .get('/mcp-servers/:mcpServerId/tools', async (c) =>
      sendMany(c, 'McpTool', unwrap(await useCases.listMcpTools(c.var.actor, id(c))).map(presentMcpTool)),
    )
    .post('/mcp-servers/:mcpServerId/tools', own('manage'), async (c) => {
      const input = await jsonBody(c, newMcpToolSchema);
      return sendOne(
        c,
        'McpTool',
        presentMcpTool(unwrap(await useCases.createMcpTool(c.var.actor, id(c), input))),
        201,
      );
    })
    .delete('/mcp-servers/:mcpServerId/tools/:mcpToolId', async (c) => {
      unwrap(await useCases.deleteMcpTool(c.var.actor, id(c), idParam(c, 'mcpToolId', 'McpTool')));
      return sendNoContent(c);
    })
    .get('/mcp-servers/:mcpServerId/executions', own('read'), async (c) => {
      const page = unwrap(await useCases.listMcpToolExecutions(c.var.actor, id(c), pageQuery(c)));
      return sendPage(c, 'McpToolExecution', page, presentMcpToolExecution);
    });
};
