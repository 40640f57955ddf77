import type { ConnectionUse } from '../../ports/app-catalog.js';
import type { ToolSpec } from '../../ports/language-model.js';
import type { CalledRun, StepFailure, StepRunRequest, StepStore } from '../../ports/step-runner.js';
import type { Agent, AgentTool } from '../domain/agent.js';
import { toolInputSchema, toolNameOf } from '../domain/tool-schema.js';
import { connectionUse } from './connection-use.js';
import type { EngineDeps } from './deps.js';
import { loadTriggered } from './flow-triggers.js';

/** What became of one tool call: an answer (told to the model), or the step waits for a called run. */
export type ToolResult =
  | { readonly kind: 'answer'; readonly output: unknown }
  /** Told to the model as the tool's answer, marked as an error. */
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'suspend'; readonly until: Date };

export interface ToolCallContext {
  /** The call's place in its step: a flow it calls is called once per place. */
  readonly seq: number;
  /** The same each time this call is made again (after a crash): apps pass it to APIs that deduplicate. */
  readonly idempotencyKey: string;
}

export interface RunnableTool {
  readonly spec: ToolSpec;
  /** A person approves each call first. */
  readonly askFirst: boolean;
  call(args: Readonly<Record<string, unknown>>, context: ToolCallContext): Promise<ToolResult>;
}

export interface Toolbox {
  readonly specs: readonly ToolSpec[];
  find(name: string): RunnableTool | null;
  /** What the agent has but cannot use here (a flow outside a run), said to whoever asked. */
  readonly skipped: readonly string[];
}

/** How the loop calls flows: as calls of the step where it runs (`key`: one run per key). */
export interface FlowCalls {
  call(
    key: string,
    flowId: string,
    input: Readonly<Record<string, unknown>>,
  ): Promise<{ readonly ok: true; readonly executionId: string } | { readonly ok: false; readonly reason: string }>;
  state(executionId: string): Promise<CalledRun | null>;
}

/** Where the agent runs: a flow's step, or a test from the console (no run, no flows). */
export interface AgentPlace {
  readonly execution: StepRunRequest['execution'];
  readonly store: StepStore;
  /** Null outside a run: flow tools are skipped. */
  readonly flows: FlowCalls | null;
  /** Whether a person can approve calls here; when not (outside a run), tools asking first are skipped. */
  readonly canAsk: boolean;
}

type Deps = Pick<EngineDeps, 'repos' | 'clock' | 'apps' | 'runner'>;

/**
 * How long a call waiting for a called run sleeps before it looks again on its own: the engine
 * wakes the run when the called one ends, so this only bounds how long a lost wake could hold it.
 */
export const CALL_RECHECK_MS = 60 * 60_000;

/** The tools failed to load (a toolbox's server did not answer): the step fails as that failure says. */
export class ToolboxUnavailable extends Error {
  constructor(readonly failure: StepFailure) {
    super(failure.message);
  }
}

/** An object with any keys: what a called flow takes. */
const ANY_OBJECT = { type: 'object', properties: {}, additionalProperties: true } as const;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The connection of a tool, if it is the agent's owner's and can be used. */
const toolConnection = async (
  deps: Deps,
  agent: Agent,
  tool: AgentTool,
): Promise<{ ok: true; value: ConnectionUse | null } | { ok: false; reason: string }> => {
  if (tool.connectionId === null) return { ok: true, value: null };
  const stored = await deps.repos.connections.findById(tool.connectionId);
  if (!stored || stored.userId !== agent.userId)
    return { ok: false, reason: 'The tool’s connection no longer exists.' };
  const use = await connectionUse(deps, stored);
  return use.ok ? use : { ok: false, reason: 'The tool’s connection cannot be used.' };
};

const appTools = (deps: Deps, agent: Agent, tool: AgentTool, place: AgentPlace): RunnableTool[] => {
  const app = tool.appKey === null ? null : deps.apps.find(tool.appKey);
  if (!app || tool.appKey === null) return [];
  const appKey = tool.appKey;
  return tool.actions.flatMap((key) => {
    const action = app.actions.find((a) => a.key === key);
    if (!action) return [];
    return [
      {
        spec: {
          name: toolNameOf(appKey, key),
          description: `${app.name}: ${action.name}. ${action.description}`.trim(),
          inputSchema: toolInputSchema(action),
        },
        askFirst: tool.askFirst.includes(key),
        async call(args, context) {
          const connection = await toolConnection(deps, agent, tool);
          if (!connection.ok) return { kind: 'error', message: connection.reason };
          const outcome = await deps.runner.runAction({
            appKey,
            key,
            parameters: args,
            connection: connection.value,
            store: place.store,
            execution: place.execution && { ...place.execution, idempotencyKey: context.idempotencyKey },
            // Flow control (waits, calls) means nothing inside a tool call: such actions fail, saying so.
            run: null,
          });
          if (outcome.kind === 'failure') return { kind: 'error', message: outcome.failure.message };
          if (outcome.kind === 'suspend') return { kind: 'error', message: 'This action cannot be used as a tool.' };
          return { kind: 'answer', output: outcome.output };
        },
      },
    ];
  });
};

const flowTool = async (
  deps: Deps & Pick<EngineDeps, 'repos'>,
  agent: Agent,
  tool: AgentTool,
  flows: FlowCalls,
): Promise<RunnableTool | null> => {
  if (tool.flowId === null) return null;
  const loaded = await loadTriggered(deps, tool.flowId);
  if (!loaded || loaded.flow.userId !== agent.userId) return null;
  const { flow, trigger } = loaded;
  const flowId = flow.id;
  return {
    spec: {
      name: toolNameOf('flow', flow.name),
      description: text(trigger.parameters.description) ?? `Runs the flow “${flow.name}” with the input given.`,
      inputSchema: ANY_OBJECT,
    },
    askFirst: tool.askFirst.includes('flow'),
    async call(args, context) {
      const started = await flows.call(`#${context.seq}`, flowId, args);
      if (!started.ok) return { kind: 'error', message: `The flow could not be called: ${started.reason}` };
      const state = await flows.state(started.executionId);
      if (!state) return { kind: 'error', message: 'The called run cannot be found.' };
      if (state.status === 'success') return { kind: 'answer', output: state.result };
      if (state.status === 'failure')
        return { kind: 'error', message: `The flow failed: ${state.error ?? 'no reason.'}` };
      return { kind: 'suspend', until: new Date(deps.clock.now().getTime() + CALL_RECHECK_MS) };
    },
  };
};

const toolboxTools = async (deps: Deps, agent: Agent, tool: AgentTool, place: AgentPlace): Promise<RunnableTool[]> => {
  if (tool.appKey === null) return [];
  const appKey = tool.appKey;
  const connection = await toolConnection(deps, agent, tool);
  if (!connection.ok) throw new ToolboxUnavailable({ message: connection.reason, retryable: false });
  const listed = await deps.runner.listTools({ appKey, connection: connection.value, execution: place.execution });
  if (listed.kind === 'failure') throw new ToolboxUnavailable(listed.failure);
  const wanted = new Set(tool.actions);
  return listed.tools
    .filter((spec) => wanted.size === 0 || wanted.has(spec.name))
    .map((spec) => ({
      spec: { ...spec, name: toolNameOf(appKey, spec.name) },
      askFirst: tool.askFirst.includes(spec.name),
      async call(args, context) {
        const outcome = await deps.runner.callTool({
          appKey,
          connection: connection.value,
          execution: place.execution && { ...place.execution, idempotencyKey: context.idempotencyKey },
          name: spec.name,
          arguments: args,
        });
        return outcome.kind === 'success'
          ? { kind: 'answer', output: outcome.output }
          : { kind: 'error', message: outcome.failure.message };
      },
    }));
};

/** Names the model sees are unique: a second tool of the same name gets `_2`, and so on. */
const uniquelyNamed = (tools: readonly RunnableTool[]): RunnableTool[] => {
  const seen = new Map<string, number>();
  return tools.map((tool) => {
    const count = (seen.get(tool.spec.name) ?? 0) + 1;
    seen.set(tool.spec.name, count);
    if (count === 1) return tool;
    const suffix = `_${count}`;
    return { ...tool, spec: { ...tool.spec, name: `${tool.spec.name.slice(0, 64 - suffix.length)}${suffix}` } };
  });
};

/**
 * The agent's tools as the model sees them, and how to call each: app actions (run like a step,
 * with the tool's connection), published flows (called as sub-flows of the run), and the tools of
 * toolbox apps (an MCP server's). Throws ToolboxUnavailable when a toolbox cannot list its tools.
 */
export const buildToolbox = async (
  deps: Deps,
  agent: Agent,
  tools: readonly AgentTool[],
  place: AgentPlace,
): Promise<Toolbox> => {
  const runnable: RunnableTool[] = [];
  const skipped: string[] = [];
  for (const tool of tools) {
    if (tool.type === 'app') runnable.push(...appTools(deps, agent, tool, place));
    else if (tool.type === 'mcp') runnable.push(...(await toolboxTools(deps, agent, tool, place)));
    else if (!place.flows) skipped.push(`flow:${tool.flowId}`);
    else {
      const flow = await flowTool(deps, agent, tool, place.flows);
      if (flow) runnable.push(flow);
    }
  }
  const usable = runnable.filter((tool) => {
    if (place.canAsk || !tool.askFirst) return true;
    skipped.push(tool.spec.name);
    return false;
  });
  const named = uniquelyNamed(usable);
  const byName = new Map(named.map((tool) => [tool.spec.name, tool]));
  return { specs: named.map((tool) => tool.spec), find: (name) => byName.get(name) ?? null, skipped };
};
