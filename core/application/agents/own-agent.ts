import type { ConnectionRecord, Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import type { Agent } from '../../domain/agent.js';
import type { DomainError } from '../../domain/errors.js';
import type { Result } from '../../domain/result.js';
import type { PermissionAction } from '../../domain/role.js';
import { personalRow } from '../load-owned.js';

/**
 * One of the caller's agents. Agents are personal, as in Automatisch (its routes read the current
 * user's own): anyone else's is not found, whatever the role. Reading needs `read Agent`,
 * changing `manage Agent`.
 */
export const loadOwnAgent = async (
  repos: Repositories,
  actor: Actor,
  agentId: string,
  action: PermissionAction,
): Promise<Result<Agent, DomainError>> =>
  personalRow(actor, { action, subject: 'Agent', resource: 'Agent' }, () => repos.agents.findById(agentId));

/**
 * A connection of the caller's own, which an agent may use: one shared with them through their
 * role is not theirs to hand to an agent (the agent runs as its owner). Null when it is not.
 */
export const ownConnection = async (
  repos: Repositories,
  actor: Actor,
  connectionId: string,
): Promise<ConnectionRecord | null> => {
  const connection = await repos.connections.findById(connectionId);
  return connection && connection.userId === actor.user.id && !connection.ownerRemoved ? connection : null;
};
