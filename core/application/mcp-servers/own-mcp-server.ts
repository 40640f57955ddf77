import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { McpServer } from '../../domain/mcp-server.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { PermissionAction } from '../../domain/role.js';
import { authorize } from '../../policy/authorize.js';

/**
 * One of the caller's MCP servers. Servers are personal, as in Automatisch (its routes read the
 * current user's own): anyone else's is not found, whatever the role. Reading needs `read
 * McpServer`, changing `manage McpServer`.
 */
export const loadOwnMcpServer = async (
  repos: Repositories,
  actor: Actor,
  mcpServerId: string,
  action: PermissionAction,
): Promise<Result<McpServer, DomainError>> => {
  const refused = authorize(actor, action, 'McpServer');
  if (refused) return err(refused);
  const server = await repos.mcpServers.findById(mcpServerId);
  return server?.userId === actor.user.id ? ok(server) : err(notFound('McpServer'));
};

/** Where MCP clients reach a server: `<public URL>/api/v1/mcp/<token>`. */
export const mcpServerUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/api/v1/mcp/${token}`;
