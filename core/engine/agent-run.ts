import type {
  AgentExecutionRepository,
  AgentMemoryRepository,
  AgentRepository,
  AgentToolRepository,
  StepCallRepository,
} from '../../ports/agent-repositories.js';
import type { ConnectionUse } from '../../ports/app-catalog.js';
import type { ChatMessage } from '../../ports/language-model.js';
import type { Repositories } from '../../ports/repositories.js';
import type { AgentRunOutcome, StepFailure, StepRunRequest, StepStore } from '../../ports/step-runner.js';
import type { Agent, AgentExecution } from '../domain/agent.js';
import { type CallJournal, openJournal } from './agent-journal.js';
import { type AgentProgress, type ApprovalOf, type LoopOutcome, runAgentLoop } from './agent-loop.js';
import { type AgentPlace, buildToolbox, type FlowCalls, type Toolbox, ToolboxUnavailable } from './agent-tools.js';
import { connectionUse } from './connection-use.js';
import type { EngineDeps } from './deps.js';

/** The repositories agents run with. */
export interface AgentRepos {
  readonly agents: AgentRepository;
  readonly agentTools: AgentToolRepository;
  readonly agentExecutions: AgentExecutionRepository;
  readonly stepCalls: StepCallRepository;
  readonly agentMemories: AgentMemoryRepository;
}

export type AgentDeps = Pick<EngineDeps, 'clock' | 'ids' | 'apps' | 'runner'> & {
  readonly repos: Repositories & AgentRepos;
};

type Failed = { readonly ok: false; readonly failure: StepFailure };
const refused = (message: string): Failed => ({ ok: false, failure: { message, retryable: false } });

/** The agent's model: its connection, of an app that is a language model, its owner's. */
const modelOf = async (
  deps: AgentDeps,
  agent: Agent,
): Promise<{ readonly ok: true; readonly appKey: string; readonly connection: ConnectionUse } | Failed> => {
  if (agent.connectionId === null) return refused(`The agent “${agent.name}” has no model connection chosen.`);
  const stored = await deps.repos.connections.findById(agent.connectionId);
  if (!stored || stored.userId !== agent.userId)
    return refused(`The model connection of the agent “${agent.name}” no longer exists.`);
  if (!deps.apps.find(stored.appKey)?.capabilities?.includes('languageModel'))
    return refused(`The connection of the agent “${agent.name}” is not a language model's.`);
  const use = await connectionUse(deps, stored);
  if (!use.ok) return refused(`The model connection of the agent “${agent.name}” cannot be used.`);
  return { ok: true, appKey: stored.appKey, connection: use.value };
};

/** What memory keeps of a conversation: what was said, without tool calls (a cut list keeps no orphan tool answer). */
const remembered = (messages: readonly ChatMessage[]): ChatMessage[] =>
  messages.flatMap((m): ChatMessage[] => {
    if (m.role === 'user') return [m];
    if (m.role === 'assistant' && m.content !== '') return [{ role: 'assistant', content: m.content }];
    return [];
  });

const isMessage = (value: unknown): value is ChatMessage => {
  const m = value as Partial<{ role: unknown; content: unknown }> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    (m.role === 'user' || m.role === 'assistant') &&
    typeof m.content === 'string'
  );
};

/** The agent's tools, listed once, when the loop first needs them (not at all when its journal answers everything). */
const lazyToolbox = (deps: AgentDeps, agent: Agent, place: AgentPlace) => {
  let tools: Promise<Toolbox> | undefined;
  return () => {
    tools ??= deps.repos.agentTools.listByAgent(agent.id).then((list) => buildToolbox(deps, agent, list, place));
    return tools;
  };
};

interface LoopRun {
  readonly agent: Agent;
  readonly run: AgentExecution;
  readonly place: AgentPlace;
  readonly toolbox: () => Promise<Toolbox>;
  readonly journal: CallJournal;
  readonly messages: readonly ChatMessage[];
  readonly approvalOf: ApprovalOf | null;
  readonly keyPrefix: string;
}

/** Runs the loop with the agent's model and tools, and records on the agent's run what became of it. */
const loopAndRecord = async (deps: AgentDeps, loop: LoopRun): Promise<LoopOutcome | Failed> => {
  const { agent, run, place, toolbox } = loop;
  const model = await modelOf(deps, agent);
  if (!model.ok) return model;
  let outcome: LoopOutcome;
  try {
    outcome = await runAgentLoop({
      messages: loop.messages,
      model: agent.model ?? undefined,
      temperature: agent.temperature ?? undefined,
      limits: agent.limits,
      startedAt: run.createdAt,
      now: () => deps.clock.now(),
      journal: loop.journal,
      toolbox,
      chat: (chat) =>
        deps.runner.chat({ appKey: model.appKey, connection: model.connection, execution: place.execution, chat }),
      approvalOf: loop.approvalOf,
      idempotencyKey: (seq) => `${loop.keyPrefix}:${seq}`,
    });
  } catch (error) {
    if (!(error instanceof ToolboxUnavailable)) throw error;
    return {
      ok: false,
      failure: { ...error.failure, message: `The agent’s tools could not be listed: ${error.message}` },
    };
  }
  const { usage } = outcome.progress;
  const now = deps.clock.now();
  if (outcome.kind === 'done') {
    await deps.repos.agentExecutions.update(
      run.id,
      { status: 'completed', output: outcome.text, usage, finishedAt: now },
      now,
    );
  } else if (outcome.kind === 'suspend') {
    await deps.repos.agentExecutions.update(run.id, { status: 'waiting', usage }, now);
  } else {
    const status = outcome.failure.retryable ? 'running' : 'failed';
    const finishedAt = outcome.failure.retryable ? null : now;
    await deps.repos.agentExecutions.update(run.id, { status, usage, finishedAt }, now);
  }
  return outcome;
};

const outputOf = (run: AgentExecution, text: string, progress: AgentProgress) => ({
  output: text,
  agentExecutionId: run.id,
  iterations: progress.iterations,
  usage: progress.usage,
  toolCalls: progress.toolCalls,
});

/** Where an agent runs as a step of a run. */
export interface AgentStep {
  readonly execution: NonNullable<StepRunRequest['execution']>;
  readonly stepKey: string;
  /** The run's flow's owner: only their agents run. */
  readonly ownerId: string;
  readonly store: StepStore;
  readonly flows: FlowCalls;
}

/**
 * The `agents` app's step: runs the agent where the step runs, as often as the step is run again,
 * going on from its recorded calls. Its run (`agent_executions`) is the step's, made on its first
 * turn; memory (when on and given a conversation key) is read on the first turn and written at the end.
 */
export const runAgentStep = async (
  deps: AgentDeps,
  step: AgentStep,
  request: { readonly agentId: string; readonly prompt: string; readonly conversationKey?: string | null },
): Promise<AgentRunOutcome> => {
  const { execution, stepKey } = step;
  const agent = await deps.repos.agents.findById(request.agentId);
  // Another user's agent reads as missing: its existence is not the flow's to learn.
  if (!agent || agent.userId !== step.ownerId)
    return { kind: 'failure', failure: { message: 'There is no such agent.', retryable: false } };
  const run = await deps.repos.agentExecutions.start({
    id: deps.ids.next(),
    agentId: agent.id,
    executionId: execution.id,
    stepKey,
    prompt: request.prompt,
    now: deps.clock.now(),
  });
  const journal = await openJournal(
    deps,
    { executionId: execution.id, stepKey, stepId: execution.stepId },
    deps.repos.stepCalls,
  );
  const key = request.conversationKey?.trim();
  const conversation = agent.memory.enabled && key ? `${execution.flowId}:${key}` : null;
  // Memory is read only before the first model call: a step run again goes on from the conversation that call was given.
  const memory =
    conversation && journal.at(0) === null
      ? (await deps.repos.agentMemories.read(agent.id, conversation)).filter(isMessage)
      : [];
  const messages: ChatMessage[] = [
    ...(agent.instructions ? [{ role: 'system' as const, content: agent.instructions }] : []),
    ...memory,
    { role: 'user', content: request.prompt },
  ];
  const place: AgentPlace = { execution, store: step.store, flows: step.flows, canAsk: true };
  const outcome = await loopAndRecord(deps, {
    agent,
    run,
    place,
    toolbox: lazyToolbox(deps, agent, place),
    journal,
    messages,
    approvalOf: async (call) => {
      const signal = await deps.repos.runSignals.take(execution.id, 'approval', stepKey, call.id);
      if (!signal) return null;
      const payload = signal.payload as { approved?: unknown } | null;
      return { approved: payload?.approved === true };
    },
    keyPrefix: `${execution.id}:${stepKey}`,
  });
  if ('ok' in outcome) return { kind: 'failure', failure: outcome.failure };
  if (outcome.kind === 'suspend') return { kind: 'suspend', until: outcome.until };
  if (outcome.kind === 'failed') return { kind: 'failure', failure: outcome.failure };
  if (conversation) {
    await deps.repos.agentMemories.write(
      agent.id,
      conversation,
      remembered(outcome.conversation),
      agent.memory.maxMessages,
      deps.clock.now(),
    );
  }
  return { kind: 'success', output: outputOf(run, outcome.text, outcome.progress) };
};

/** A store that lives as long as one test of an agent. */
const throwawayStore = (): StepStore => {
  const values = new Map<string, unknown>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
  };
};

export type AgentTestOutcome =
  | {
      readonly ok: true;
      readonly response: string;
      readonly executionId: string;
      /** Tools left out: flows, and tools asking first (no run, nobody to ask). */
      readonly skipped: readonly string[];
    }
  | { readonly ok: false; readonly executionId: string; readonly failure: StepFailure };

/**
 * A test of an agent from the console: the conversation given (its last message the user's), no
 * run around it. Flows cannot be called and nobody can approve, so those tools are left out; the
 * calls are not kept (they have no run to hang on), the agent's run is.
 */
export const testAgent = async (
  deps: AgentDeps,
  agent: Agent,
  conversation: readonly ChatMessage[],
): Promise<AgentTestOutcome> => {
  const last = conversation.at(-1);
  const run = await deps.repos.agentExecutions.start({
    id: deps.ids.next(),
    agentId: agent.id,
    executionId: null,
    stepKey: null,
    prompt: last?.role === 'user' ? last.content : '',
    now: deps.clock.now(),
  });
  const journal = await openJournal(deps, { executionId: run.id, stepKey: 'test', stepId: 'test' }, null);
  const place: AgentPlace = { execution: null, store: throwawayStore(), flows: null, canAsk: false };
  const toolbox = lazyToolbox(deps, agent, place);
  const outcome = await loopAndRecord(deps, {
    agent,
    run,
    place,
    toolbox,
    journal,
    messages: [
      ...(agent.instructions ? [{ role: 'system' as const, content: agent.instructions }] : []),
      ...conversation,
    ],
    approvalOf: null,
    keyPrefix: run.id,
  });
  if ('ok' in outcome) return { ok: false, executionId: run.id, failure: outcome.failure };
  if (outcome.kind !== 'done') {
    return {
      ok: false,
      executionId: run.id,
      failure: { message: 'The agent could not finish outside a run.', retryable: false },
    };
  }
  return { ok: true, response: outcome.text, executionId: run.id, skipped: (await toolbox()).skipped };
};
