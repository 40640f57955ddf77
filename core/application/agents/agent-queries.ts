import type { Actor } from '../../domain/actor.js';
import type { Agent, AgentTool } from '../../domain/agent.js';
import type { DomainError } from '../../domain/errors.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnAgent } from './own-agent.js';

export const makeAgentQueries = ({ repos }: Pick<CoreDeps, 'repos'>) => ({
  /** The caller's agents, newest first; administrators too see only their own. */
  async listAgents(actor: Actor, page: PageRequest): Promise<Result<Page<Agent>, DomainError>> {
    const refused = authorize(actor, 'read', 'Agent');
    return refused ? err(refused) : ok(await repos.agents.listByUser(actor.user.id, page));
  },
  getAgent: (actor: Actor, agentId: string): Promise<Result<Agent, DomainError>> =>
    loadOwnAgent(repos, actor, agentId, 'read'),
  /** The agent's tools: apps' by app key, then flows. */
  async listAgentTools(actor: Actor, agentId: string): Promise<Result<AgentTool[], DomainError>> {
    const loaded = await loadOwnAgent(repos, actor, agentId, 'read');
    return loaded.ok ? ok(await repos.agentTools.listByAgent(agentId)) : loaded;
  },
});
