import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnAgent } from './own-agent.js';

/** Takes a tool away from one of the caller's agents. */
export const makeDeleteAgentTool =
  ({ repos, uow }: Pick<CoreDeps, 'repos' | 'uow'>) =>
  async (actor: Actor, agentId: string, toolId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadOwnAgent(repos, actor, agentId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) =>
      (await tx.agentTools.delete(agentId, toolId)) ? ok(undefined) : err(notFound('Tool')),
    );
  };
