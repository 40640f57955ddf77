import type { Agent, AgentTool } from '../../../core/domain/agent.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

/** Automatisch's agent serializer's keys, and Conveyor's model settings. */
export const presentAgent = (agent: Agent): Answer<'Agent'> => ({
  id: agent.id,
  name: agent.name,
  description: agent.description,
  instructions: agent.instructions,
  connectionId: agent.connectionId,
  model: agent.model,
  temperature: agent.temperature,
  limits: agent.limits,
  memory: agent.memory,
  createdAt: epochMs(agent.createdAt),
  updatedAt: epochMs(agent.updatedAt),
});

/** Automatisch's agent tool's keys (it renders the row), and `askFirst`. */
export const presentAgentTool = (tool: AgentTool): Answer<'AgentTool'> => ({
  id: tool.id,
  agentId: tool.agentId,
  type: tool.type,
  appKey: tool.appKey,
  connectionId: tool.connectionId,
  actions: tool.actions,
  flowId: tool.flowId,
  askFirst: tool.askFirst,
  createdAt: epochMs(tool.createdAt),
  updatedAt: epochMs(tool.updatedAt),
});
