import type { Actor } from '../../domain/actor.js';
import type { Agent } from '../../domain/agent.js';
import type { DomainError } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { changedSettings, DEFAULT_SETTINGS, modelConnectionRefusal, type NewAgentInput } from './agent-input.js';

/** An agent of the caller's, with the domain's limits and memory settings where none are given. */
export const makeCreateAgent =
  (deps: Pick<CoreDeps, 'repos' | 'apps' | 'uow' | 'clock' | 'ids'>) =>
  async (actor: Actor, input: NewAgentInput): Promise<Result<Agent, DomainError>> => {
    const refused =
      authorize(actor, 'manage', 'Agent') ?? (await modelConnectionRefusal(deps, actor, input.connectionId));
    if (refused) return err(refused);
    const settings = changedSettings(DEFAULT_SETTINGS, input);
    return deps.uow.run(async (tx) =>
      ok(await tx.agents.insert({ ...settings, id: deps.ids.next(), userId: actor.user.id, now: deps.clock.now() })),
    );
  };
