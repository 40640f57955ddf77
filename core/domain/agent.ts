/**
 * Agents (Automatisch's `/api/v1/agents`): a model, instructions and tools, which the `agents`
 * app's `runAgent` step (or a test from the console) runs in a tool-calling loop.
 */

/** The loop stops there: a model that keeps calling tools, or an answer too long, ends the run. */
export interface AgentLimits {
  /** Model calls per run. */
  readonly maxIterations: number;
  /** Input and output tokens over the whole run. */
  readonly maxTokens: number;
  readonly timeoutSeconds: number;
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = { maxIterations: 10, maxTokens: 100_000, timeoutSeconds: 300 };

/** Conversation memory: the last messages of a conversation, kept per flow and conversation key. */
export interface AgentMemorySettings {
  readonly enabled: boolean;
  /** Messages kept per conversation; older ones are forgotten. */
  readonly maxMessages: number;
}

export const DEFAULT_AGENT_MEMORY: AgentMemorySettings = { enabled: false, maxMessages: 20 };

/** What an agent's settings and tools may hold: the edges' input schemas read their bounds here. */
export const AGENT_BOUNDS = {
  nameLength: 255,
  descriptionLength: 1000,
  instructionsLength: 100_000,
  modelLength: 200,
  temperature: { min: 0, max: 2 },
  maxIterations: { min: 1, max: 50 },
  maxTokens: { min: 1, max: 10_000_000 },
  timeoutSeconds: { min: 1, max: 3600 },
  maxMessages: { min: 1, max: 200 },
  /** Actions (or an MCP server's tools) per tool, and the length of each name. */
  toolActions: 200,
  actionLength: 200,
} as const;

export interface Agent {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly description: string | null;
  /** The system prompt. */
  readonly instructions: string | null;
  /** A connection of an app with the `languageModel` capability; null until chosen (the agent cannot run). */
  readonly connectionId: string | null;
  /** The vendor's model name; null for the app's default. */
  readonly model: string | null;
  readonly temperature: number | null;
  readonly limits: AgentLimits;
  readonly memory: AgentMemorySettings;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * What an agent may call. `app`: actions (`actions`, their keys) of an app with a connection;
 * `flow`: a published flow that starts with `flows.calledByFlow` or `mcp.mcpTool`, run as a
 * sub-flow; `mcp`: tools (`actions`, their names; empty for all) of an app with the `toolbox`
 * capability (an MCP server's) with a connection.
 */
export const AGENT_TOOL_TYPES = ['app', 'flow', 'mcp'] as const;
export type AgentToolType = (typeof AGENT_TOOL_TYPES)[number];

/** What `askFirst` names for a flow tool: the flow's run. */
export const FLOW_TOOL_ACTION = 'flow';

export interface AgentTool {
  readonly id: string;
  readonly agentId: string;
  readonly type: AgentToolType;
  readonly appKey: string | null;
  readonly connectionId: string | null;
  readonly actions: readonly string[];
  readonly flowId: string | null;
  /** Of `actions` (or, for a flow, `['flow']`), those a person approves before each call. */
  readonly askFirst: readonly string[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type AgentExecutionStatus = 'running' | 'waiting' | 'completed' | 'failed';

/** One run of an agent: from a flow's step (`executionId`, `stepKey`) or a test from the console. */
export interface AgentExecution {
  readonly id: string;
  readonly agentId: string;
  readonly executionId: string | null;
  /** The step where it ran (its id and loop iterations); null for a test. */
  readonly stepKey: string | null;
  readonly prompt: string;
  readonly output: string | null;
  readonly status: AgentExecutionStatus;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly finishedAt: Date | null;
}

export type StepCallKind = 'model' | 'tool';
export type StepCallStatus = 'running' | 'waiting' | 'success' | 'failure' | 'denied';

/**
 * A call a step made on its way (an agent's model calls and tool calls), recorded as a child of
 * the execution step: what the API and the console show, and what a step run again after a crash
 * reads instead of calling again (`seq` is its place in the step's sequence of calls).
 */
export interface StepCall {
  readonly id: string;
  readonly executionId: string;
  /** The step where it ran: its id and loop iterations (`stepKeyOf`). */
  readonly stepKey: string;
  readonly stepId: string;
  readonly seq: number;
  readonly kind: StepCallKind;
  /** The model's name, or the tool's. */
  readonly name: string;
  readonly input: unknown;
  readonly output: unknown;
  readonly status: StepCallStatus;
  readonly error: string | null;
  /** Model calls: the tokens it used. */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number } | null;
  readonly startedAt: Date;
  readonly finishedAt: Date | null;
}
