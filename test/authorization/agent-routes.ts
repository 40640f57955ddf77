import type { Actor } from '../../core/domain/actor.js';
import { authorize } from '../../core/policy/authorize.js';
import type { ActorFactory, TestActor } from './actors.js';
import { adminOnly, type ForeignCase, type MatrixFixtures, MISSING, type RouteCase, unique } from './route-case.js';

const FORMATTER_TOOL = { type: 'app', appKey: 'formatter', actions: ['text'] } as const;

/** Who owns what a row makes: the caller when their role lets them, else the installing administrator. */
const agentOwner = (fx: ActorFactory, actor: TestActor | null): Actor =>
  actor?.core && authorize(actor.core, 'manage', 'Agent') === null ? actor.core : fx.adminActor;

/** An agent of the caller (or, for callers who cannot make one, the administrator's). */
export const agentFor = async (fx: ActorFactory, actor: TestActor | null): Promise<string> => {
  const made = await fx.useCases.createAgent(agentOwner(fx, actor), { name: `Agent ${unique()}` });
  if (!made.ok) throw new Error(`could not create an agent: ${made.error.code}`);
  return made.value.id;
};

const agentPath = async (fx: MatrixFixtures, actor: TestActor | null) => `/agents/${await agentFor(fx, actor)}`;

/** An agent with a tool, and the path of that tool. */
const toolPath = async (fx: MatrixFixtures, actor: TestActor | null) => {
  const agentId = await agentFor(fx, actor);
  const tool = await fx.useCases.addAgentTool(agentOwner(fx, actor), agentId, FORMATTER_TOOL);
  if (!tool.ok) throw new Error(`could not add a tool: ${tool.error.code}`);
  return `/agents/${agentId}/tools/${tool.value.id}`;
};

/**
 * Agents are personal, as in Automatisch, and only the Admin role holds `Agent` at first (as
 * Automatisch seeds it): the User role and the flow-only roles are refused before any lookup.
 */
const foreign: ForeignCase = { path: (fx) => agentPath(fx, null), status: 403, readAllManageOwn: 403, manageAll: 403 };

/** Every route of agents (Automatisch's `/agents`). */
export const AGENT_ROUTES: readonly RouteCase[] = [
  { method: 'GET', route: '/agents', path: () => '/agents', expect: adminOnly(200) },
  {
    method: 'POST',
    route: '/agents',
    path: () => '/agents',
    body: () => ({ name: `Agent ${unique()}`, temperature: 0.2, limits: { maxIterations: 5 } }),
    expect: adminOnly(201),
  },
  { method: 'GET', route: '/agents/:agentId', path: agentPath, expect: adminOnly(200), foreign },
  {
    method: 'PATCH',
    route: '/agents/:agentId',
    path: agentPath,
    body: () => ({ name: `Renamed ${unique()}`, memory: { enabled: true } }),
    expect: adminOnly(200),
    foreign,
  },
  { method: 'DELETE', route: '/agents/:agentId', path: agentPath, expect: adminOnly(204), foreign },
  {
    method: 'GET',
    route: '/agents/:agentId/tools',
    path: async (fx, actor) => `${await agentPath(fx, actor)}/tools`,
    expect: adminOnly(200),
    foreign: { ...foreign, path: async (fx) => `${await agentPath(fx, null)}/tools` },
  },
  {
    method: 'POST',
    route: '/agents/:agentId/tools',
    path: async (fx, actor) => `${await agentPath(fx, actor)}/tools`,
    body: () => FORMATTER_TOOL,
    expect: adminOnly(201),
    foreign: { ...foreign, path: async (fx) => `${await agentPath(fx, null)}/tools` },
  },
  {
    method: 'DELETE',
    route: '/agents/:agentId/tools/:toolId',
    path: toolPath,
    expect: adminOnly(204),
    foreign: { ...foreign, path: (fx) => toolPath(fx, null) },
  },
  {
    // An empty conversation: a caller who may test the agent learns what the body lacks, and only them.
    method: 'POST',
    route: '/agents/:agentId/test',
    path: async (fx, actor) => `${await agentPath(fx, actor)}/test`,
    body: () => ({ messages: [] }),
    expect: adminOnly(422),
    foreign: { ...foreign, path: async (fx) => `${await agentPath(fx, null)}/test` },
  },
  {
    method: 'GET',
    route: '/agents/:agentId/executions',
    path: async (fx, actor) => `${await agentPath(fx, actor)}/executions`,
    expect: adminOnly(200),
    foreign: { ...foreign, path: async (fx) => `${await agentPath(fx, null)}/executions` },
  },
  {
    method: 'GET',
    route: '/agents/:agentId/executions/:executionId',
    path: async (fx, actor) => `${await agentPath(fx, actor)}/executions/${MISSING}`,
    expect: adminOnly(404),
    foreign: { ...foreign, path: async (fx) => `${await agentPath(fx, null)}/executions/${MISSING}` },
  },
];
