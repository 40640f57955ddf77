import type { Actor } from '../../domain/actor.js';
import {
  type Agent,
  type AgentLimits,
  type AgentMemorySettings,
  DEFAULT_AGENT_LIMITS,
  DEFAULT_AGENT_MEMORY,
} from '../../domain/agent.js';
import { type DomainError, invalidInput } from '../../domain/errors.js';
import type { CoreDeps } from '../deps.js';
import { ownConnection } from './own-agent.js';

/**
 * An agent's settings as a client sends them: any of them (null clears a text, the connection,
 * the model or the temperature); `limits` and `memory` in part, the rest kept.
 */
export interface AgentChangesInput {
  readonly name?: string | undefined;
  readonly description?: string | null | undefined;
  readonly instructions?: string | null | undefined;
  readonly connectionId?: string | null | undefined;
  readonly model?: string | null | undefined;
  readonly temperature?: number | null | undefined;
  readonly limits?: Partial<AgentLimits> | undefined;
  readonly memory?: Partial<AgentMemorySettings> | undefined;
}

/** What creates an agent: its name, and whatever else it has to say. */
export type NewAgentInput = AgentChangesInput & { readonly name: string };

type Settings = Pick<
  Agent,
  'name' | 'description' | 'instructions' | 'connectionId' | 'model' | 'temperature' | 'limits' | 'memory'
>;

/** The settings an agent has after the change: what is given, over what it had. */
export const changedSettings = (before: Settings, input: AgentChangesInput): Settings => ({
  name: input.name ?? before.name,
  description: input.description === undefined ? before.description : input.description,
  instructions: input.instructions === undefined ? before.instructions : input.instructions,
  connectionId: input.connectionId === undefined ? before.connectionId : input.connectionId,
  model: input.model === undefined ? before.model : input.model,
  temperature: input.temperature === undefined ? before.temperature : input.temperature,
  limits: { ...before.limits, ...input.limits },
  memory: { ...before.memory, ...input.memory },
});

/** A new agent's settings before the client's: nothing but the domain's defaults. */
export const DEFAULT_SETTINGS: Settings = {
  name: '',
  description: null,
  instructions: null,
  connectionId: null,
  model: null,
  temperature: null,
  limits: DEFAULT_AGENT_LIMITS,
  memory: DEFAULT_AGENT_MEMORY,
};

/** An agent's connection must be the caller's own, of an app that offers a language model. */
export const modelConnectionRefusal = async (
  { repos, apps }: Pick<CoreDeps, 'repos' | 'apps'>,
  actor: Actor,
  connectionId: string | null | undefined,
): Promise<DomainError | null> => {
  if (connectionId === null || connectionId === undefined) return null;
  const connection = await ownConnection(repos, actor, connectionId);
  if (!connection) return invalidInput({ connectionId: ['is not one of your connections.'] });
  const app = apps.find(connection.appKey);
  return app?.capabilities?.includes('languageModel')
    ? null
    : invalidInput({ connectionId: ['is not a connection of an app with a language model.'] });
};
