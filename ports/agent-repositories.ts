import type { Agent, AgentExecution, AgentTool, StepCall } from '../core/domain/agent.js';
import type { Page, PageRequest } from '../core/domain/page.js';

export type AgentChanges = Partial<
  Pick<Agent, 'name' | 'description' | 'instructions' | 'connectionId' | 'model' | 'temperature' | 'limits' | 'memory'>
>;

/** Agents (`agents`), each owned by a user. Deleted agents are gone from every read. */
export interface AgentRepository {
  insert(agent: Omit<Agent, 'createdAt' | 'updatedAt'> & { readonly now: Date }): Promise<Agent>;
  findById(id: string): Promise<Agent | null>;
  /** The user's agents, newest first. */
  listByUser(userId: string, page: PageRequest): Promise<Page<Agent>>;
  update(id: string, changes: AgentChanges, now: Date): Promise<Agent | null>;
  /** With its tools; its executions stay for the record. */
  delete(id: string, now: Date): Promise<void>;
}

/** An agent's tools (`agent_tools`): one row per app (type `app`/`mcp`, replaced when added again) or per flow. */
export interface AgentToolRepository {
  listByAgent(agentId: string): Promise<AgentTool[]>;
  /** Adds the tool, replacing the agent's tool of the same app (`app`, `mcp`) or flow (`flow`). */
  upsert(tool: Omit<AgentTool, 'createdAt' | 'updatedAt'> & { readonly now: Date }): Promise<AgentTool>;
  delete(agentId: string, toolId: string): Promise<boolean>;
}

/** Runs of agents (`agent_executions`). */
export interface AgentExecutionRepository {
  /** The run of this step where it runs, made on first call: asked again (a step run again), the same. */
  start(
    run: Omit<AgentExecution, 'createdAt' | 'updatedAt' | 'finishedAt' | 'output' | 'status' | 'usage'> & {
      readonly now: Date;
    },
  ): Promise<AgentExecution>;
  findById(id: string): Promise<AgentExecution | null>;
  findByStep(executionId: string, stepKey: string): Promise<AgentExecution | null>;
  update(
    id: string,
    changes: Partial<Pick<AgentExecution, 'status' | 'output' | 'usage' | 'finishedAt'>>,
    now: Date,
  ): Promise<void>;
  /** The agent's runs, newest first. */
  listByAgent(agentId: string, page: PageRequest): Promise<Page<AgentExecution>>;
}

/** Calls steps made on their way (`execution_step_calls`): an agent's model and tool calls. */
export interface StepCallRepository {
  /** Records a call about to be made; false when the step has one at that `seq` already (a step run again). */
  insert(call: StepCall): Promise<boolean>;
  /** The call ended (or waits for approval). */
  finish(
    id: string,
    changes: Pick<StepCall, 'status' | 'output' | 'error' | 'usage'> & { readonly finishedAt: Date | null },
  ): Promise<void>;
  /** The step's calls where it runs, by `seq`. */
  listByStep(executionId: string, stepKey: string): Promise<StepCall[]>;
  /** The run's calls, by step and `seq`: what the API shows. */
  listByExecution(executionId: string): Promise<StepCall[]>;
}

/** Conversation memory (`agent_memories`): messages per agent, flow and conversation key. */
export interface AgentMemoryRepository {
  /** The conversation's messages, oldest first (JSON `ChatMessage`s). */
  read(agentId: string, conversation: string): Promise<unknown[]>;
  /** Replaces them, keeping only the last `max`. */
  write(agentId: string, conversation: string, messages: readonly unknown[], max: number, now: Date): Promise<void>;
}
