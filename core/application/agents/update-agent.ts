import type { Actor } from '../../domain/actor.js';
import type { Agent } from '../../domain/agent.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { type AgentChangesInput, changedSettings, modelConnectionRefusal } from './agent-input.js';
import { loadOwnAgent } from './own-agent.js';

/** Changes what is given of one of the caller's agents; runs already under way keep what they read. */
export const makeUpdateAgent =
  (deps: Pick<CoreDeps, 'repos' | 'apps' | 'uow' | 'clock'>) =>
  async (actor: Actor, agentId: string, input: AgentChangesInput): Promise<Result<Agent, DomainError>> => {
    const loaded = await loadOwnAgent(deps.repos, actor, agentId, 'manage');
    if (!loaded.ok) return loaded;
    const refused = await modelConnectionRefusal(deps, actor, input.connectionId);
    if (refused) return err(refused);
    const changes = changedSettings(loaded.value, input);
    return deps.uow.run(async (tx) => {
      const updated = await tx.agents.update(agentId, changes, deps.clock.now());
      return updated ? ok(updated) : err(notFound('Agent'));
    });
  };
