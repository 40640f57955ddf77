import type { Actor } from '../../core/domain/actor.js';
import { authorize } from '../../core/policy/authorize.js';
import type { ActorFactory, TestActor } from './actors.js';
import { adminOnly, everyone, type ForeignCase, type RouteCase, unique } from './route-case.js';

const must = <T>(result: { ok: true; value: T } | { ok: false; error: { code: string } }, what: string): T => {
  if (!result.ok) throw new Error(`could not ${what}: ${result.error.code}`);
  return result.value;
};

/** The caller when their role may make MCP servers (administrators), else the installing administrator. */
const serverOwner = (fx: ActorFactory, actor: TestActor | null): Actor =>
  actor?.core && authorize(actor.core, 'manage', 'McpServer') === null ? actor.core : fx.adminActor;

const newServer = async (fx: ActorFactory, actor: TestActor | null) =>
  must(await fx.useCases.createMcpServer(serverOwner(fx, actor), { name: `Server ${unique()}` }), 'create a server');

const serverPath = async (fx: ActorFactory, actor: TestActor | null) =>
  `/mcp-servers/${(await newServer(fx, actor)).server.id}`;

const toolPath = async (fx: ActorFactory, actor: TestActor | null) => {
  const by = serverOwner(fx, actor);
  const { server } = await newServer(fx, actor);
  const tool = must(
    await fx.useCases.createMcpTool(by, server.id, { type: 'app', appKey: 'formatter', action: 'text' }),
    'add a tool',
  );
  return `/mcp-servers/${server.id}/tools/${tool.id}`;
};

/**
 * MCP servers are personal, and only roles holding `McpServer` reach them (the Admin role, as
 * Automatisch seeds it): a User-role caller is refused, another administrator finds nothing.
 */
const foreign: ForeignCase = {
  path: (fx) => serverPath(fx, null),
  status: 403,
  readAllManageOwn: 403,
  manageAll: 403,
};
const under = (suffix: string): ForeignCase => ({
  ...foreign,
  path: async (fx) => `${await serverPath(fx, null)}${suffix}`,
});

/** Every route of MCP servers, and the MCP endpoint itself (public: its token is its guard). */
export const MCP_SERVER_ROUTES: readonly RouteCase[] = [
  { method: 'GET', route: '/mcp-servers', path: () => '/mcp-servers', expect: adminOnly(200) },
  {
    method: 'POST',
    route: '/mcp-servers',
    path: () => '/mcp-servers',
    body: () => ({ name: `Server ${unique()}` }),
    expect: adminOnly(201),
  },
  { method: 'GET', route: '/mcp-servers/:mcpServerId', path: serverPath, expect: adminOnly(200), foreign },
  {
    method: 'PATCH',
    route: '/mcp-servers/:mcpServerId',
    path: serverPath,
    body: () => ({ name: `Renamed ${unique()}` }),
    expect: adminOnly(200),
    foreign,
  },
  { method: 'DELETE', route: '/mcp-servers/:mcpServerId', path: serverPath, expect: adminOnly(204), foreign },
  {
    method: 'POST',
    route: '/mcp-servers/:mcpServerId/rotate-token',
    path: async (fx, actor) => `${await serverPath(fx, actor)}/rotate-token`,
    expect: adminOnly(200),
    foreign: under('/rotate-token'),
  },
  {
    method: 'GET',
    route: '/mcp-servers/:mcpServerId/tools',
    path: async (fx, actor) => `${await serverPath(fx, actor)}/tools`,
    expect: adminOnly(200),
    foreign: under('/tools'),
  },
  {
    method: 'POST',
    route: '/mcp-servers/:mcpServerId/tools',
    path: async (fx, actor) => `${await serverPath(fx, actor)}/tools`,
    body: () => ({ type: 'app', appKey: 'formatter', action: 'text' }),
    expect: adminOnly(201),
    foreign: under('/tools'),
  },
  {
    method: 'DELETE',
    route: '/mcp-servers/:mcpServerId/tools/:mcpToolId',
    path: toolPath,
    expect: adminOnly(204),
    foreign: { ...foreign, path: (fx) => toolPath(fx, null) },
  },
  {
    method: 'GET',
    route: '/mcp-servers/:mcpServerId/executions',
    path: async (fx, actor) => `${await serverPath(fx, actor)}/executions`,
    expect: adminOnly(200),
    foreign: under('/executions'),
  },
  // An unknown token opens nothing, whoever sends it (any other method is 405 for a valid token,
  // 404 for an unknown one: test/http/mcp-servers.test.ts).
  { method: 'POST', route: '/mcp/:mcpServerToken', path: () => `/mcp/unknown-${unique()}`, expect: everyone(404) },
];
