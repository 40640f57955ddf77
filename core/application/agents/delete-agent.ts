import type { Actor } from '../../domain/actor.js';
import type { DomainError } from '../../domain/errors.js';
import { ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnAgent } from './own-agent.js';

/** Deletes one of the caller's agents with its tools; its runs stay for the record. */
export const makeDeleteAgent =
  ({ repos, uow, clock }: Pick<CoreDeps, 'repos' | 'uow' | 'clock'>) =>
  async (actor: Actor, agentId: string): Promise<Result<void, DomainError>> => {
    const loaded = await loadOwnAgent(repos, actor, agentId, 'manage');
    if (!loaded.ok) return loaded;
    return uow.run(async (tx) => {
      await tx.agents.delete(agentId, clock.now());
      return ok(undefined);
    });
  };
