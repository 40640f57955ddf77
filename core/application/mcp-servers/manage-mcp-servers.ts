import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { McpServer } from '../../domain/mcp-server.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnMcpServer, mcpServerUrl } from './own-mcp-server.js';

/** A server with its secret: what creating it and rotating its token answer, and nothing else. */
export interface McpServerWithToken {
  readonly server: McpServer;
  /** The only time the token is shown. */
  readonly token: string;
  readonly serverUrl: string;
}

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'secrets' | 'settings'>;

/** The caller's MCP servers: list, read, create, rename, delete, and rotate a server's token. */
export const makeMcpServerManagement = (deps: Deps) => {
  const { repos, uow, clock, ids, secrets } = deps;
  const withToken = (server: McpServer, token: string): McpServerWithToken => ({
    server,
    token,
    serverUrl: mcpServerUrl(deps.settings.engine.publicUrl, token),
  });

  return {
    async listMcpServers(actor: Actor): Promise<Result<McpServer[], DomainError>> {
      const refused = authorize(actor, 'read', 'McpServer');
      return refused ? err(refused) : ok(await repos.mcpServers.listByUser(actor.user.id));
    },

    getMcpServer: (actor: Actor, mcpServerId: string) => loadOwnMcpServer(repos, actor, mcpServerId, 'read'),

    async createMcpServer(
      actor: Actor,
      input: { readonly name: string },
    ): Promise<Result<McpServerWithToken, DomainError>> {
      const refused = authorize(actor, 'manage', 'McpServer');
      if (refused) return err(refused);
      const token = secrets.generate();
      return uow.run(async (tx) => {
        const server = await tx.mcpServers.insert({
          id: ids.next(),
          userId: actor.user.id,
          name: input.name.trim(),
          tokenHash: secrets.hash(token),
          now: clock.now(),
        });
        return ok(withToken(server, token));
      });
    },

    async updateMcpServer(
      actor: Actor,
      mcpServerId: string,
      input: { readonly name: string },
    ): Promise<Result<McpServer, DomainError>> {
      const loaded = await loadOwnMcpServer(repos, actor, mcpServerId, 'manage');
      if (!loaded.ok) return loaded;
      return uow.run(async (tx) => {
        await tx.mcpServers.rename(mcpServerId, input.name.trim(), clock.now());
        const updated = await tx.mcpServers.findById(mcpServerId);
        return updated ? ok(updated) : err(notFound('McpServer'));
      });
    },

    async deleteMcpServer(actor: Actor, mcpServerId: string): Promise<Result<void, DomainError>> {
      const loaded = await loadOwnMcpServer(repos, actor, mcpServerId, 'manage');
      if (!loaded.ok) return loaded;
      return uow.run(async (tx) => {
        await tx.mcpServers.delete(mcpServerId);
        return ok(undefined);
      });
    },

    /** A new token; the old one is refused from the next request on (the endpoint keeps no sessions). */
    async rotateMcpServerToken(actor: Actor, mcpServerId: string): Promise<Result<McpServerWithToken, DomainError>> {
      const loaded = await loadOwnMcpServer(repos, actor, mcpServerId, 'manage');
      if (!loaded.ok) return loaded;
      const token = secrets.generate();
      return uow.run(async (tx) => {
        await tx.mcpServers.replaceToken(mcpServerId, secrets.hash(token), clock.now());
        const updated = await tx.mcpServers.findById(mcpServerId);
        return updated ? ok(withToken(updated, token)) : err(notFound('McpServer'));
      });
    },
  };
};
