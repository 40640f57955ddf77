import type { StepStore } from '../../../ports/step-runner.js';
import { errorMessages } from '../../domain/error-messages.js';
import { type DomainError, errorMessage, notFound, quotaExceeded } from '../../domain/errors.js';
import { type Execution, isFinished } from '../../domain/execution.js';
import {
  MCP_RESPOND_WITH,
  MCP_TOOL_TRIGGER,
  type McpServer,
  type McpTool,
  type McpToolExecution,
} from '../../domain/mcp-server.js';
import { err, ok, type Result } from '../../domain/result.js';
import { toolInputSchema, toolNameOf } from '../../domain/tool-schema.js';
import { loadTriggered, runFlowTrigger, type Triggered } from '../../engine/flow-triggers.js';
import type { IntakeGate } from '../../engine/intake-gate.js';
import type { RunExecution } from '../../engine/run-execution.js';
import { failureDetails } from '../../engine/run-step.js';
import { startRuns } from '../../engine/start-runs.js';
import { stepConnection } from '../../engine/step-connection.js';
import { stepsOfRun } from '../../engine/version-steps.js';
import { authorize } from '../../policy/authorize.js';
import { checkRateLimits } from '../auth/rate-limit.js';
import type { Billing } from '../billing/plan-and-usage.js';
import type { CoreDeps } from '../deps.js';

/** A tool as `tools/list` shows it. */
export interface ServedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** What a `tools/call` answers: the tool's output, why it failed, or that the run goes on. */
export type ToolCallAnswer =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'success'; readonly output: unknown }
  | { readonly kind: 'failure'; readonly message: string }
  | { readonly kind: 'running'; readonly executionId: string };

type Deps = Pick<
  CoreDeps,
  | 'repos'
  | 'uow'
  | 'clock'
  | 'ids'
  | 'apps'
  | 'runner'
  | 'queue'
  | 'logger'
  | 'settings'
  | 'secrets'
  | 'rateLimiter'
  | 'random'
> & {
  readonly billing: Pick<Billing, 'mayRun'>;
  readonly runExecution: RunExecution;
  readonly intake: IntakeGate;
};

const EMPTY_SCHEMA = { type: 'object', properties: {} } as const;
/** How often a call looks again at a flow tool's run that waits (a delay, a called flow) in a worker. */
const RUN_POLL_MS = 50;

const sleep = (ms: number) => new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/** A flow's `inputSchema` argument: a JSON Schema of an object, else one that takes any object. */
const flowInputSchema = (text: unknown): Readonly<Record<string, unknown>> => {
  if (typeof text !== 'string' || text.trim() === '') return EMPTY_SCHEMA;
  try {
    const schema: unknown = JSON.parse(text);
    const isObjectSchema =
      typeof schema === 'object' &&
      schema !== null &&
      !Array.isArray(schema) &&
      (schema as { type?: unknown }).type === 'object';
    return isObjectSchema ? (schema as Record<string, unknown>) : EMPTY_SCHEMA;
  } catch {
    return EMPTY_SCHEMA;
  }
};

const nonEmpty = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** A tool as served, with what calling it needs; null for a tool that is not callable now. */
type Callable =
  | { readonly tool: McpTool; readonly spec: ServedTool; readonly kind: 'app' }
  | { readonly tool: McpTool; readonly spec: ServedTool; readonly kind: 'flow'; readonly triggered: Triggered };

/** A store for an action run outside any flow: what it keeps lasts for the call. */
const callStore = (): StepStore => {
  const values = new Map<string, unknown>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
  };
};

/**
 * Conveyor as an MCP server: the endpoint `/api/v1/mcp/:token` opens a server by its token, lists
 * its tools and calls them. App tools run their action now with the tool's connection; flow tools
 * start a run of their flow (published, owned by the server's owner) and wait for it up to the
 * instance's time limit. Every call is recorded in `mcp_tool_executions`.
 */
export const makeServeMcp = (deps: Deps) => {
  const { repos, clock, ids, logger } = deps;

  const callableOf = async (server: McpServer, tool: McpTool): Promise<Callable | null> => {
    if (tool.type === 'app') {
      const app = tool.appKey ? deps.apps.find(tool.appKey) : null;
      const action = app?.actions.find((a) => a.key === tool.action);
      if (!app || !action) return null;
      const spec = {
        name: toolNameOf(app.key, action.key),
        description: action.description || action.name,
        inputSchema: toolInputSchema(action),
      };
      return { tool, spec, kind: 'app' };
    }
    const triggered = tool.flowId ? await loadTriggered(deps, tool.flowId) : null;
    if (!triggered?.flow.active || !triggered.version || triggered.flow.userId !== server.userId) return null;
    const { trigger, flow } = triggered;
    if (trigger.appKey !== MCP_TOOL_TRIGGER.appKey || trigger.key !== MCP_TOOL_TRIGGER.key) return null;
    const spec = {
      name: nonEmpty(trigger.parameters.toolName) ?? `flow_${flow.id}`,
      description: nonEmpty(trigger.parameters.toolDescription) ?? flow.name,
      inputSchema: flowInputSchema(trigger.parameters.inputSchema),
    };
    return { tool, spec, kind: 'flow', triggered };
  };

  const callables = async (server: McpServer): Promise<Callable[]> => {
    const tools = await repos.mcpTools.listByServer(server.id);
    const all = await Promise.all(tools.map((tool) => callableOf(server, tool)));
    // Two tools of one name (a flow's trigger renamed after it was added): the first added serves.
    const seen = new Set<string>();
    return all.filter((callable): callable is Callable => {
      if (!callable || seen.has(callable.spec.name)) return false;
      seen.add(callable.spec.name);
      return true;
    });
  };

  /** Records a call; a record that cannot be stored (text the database refuses) does not fail the call. */
  const record = async (entry: Omit<McpToolExecution, 'id' | 'createdAt'>) => {
    try {
      await repos.mcpToolExecutions.insert({ ...entry, id: ids.ordered(), now: clock.now() });
    } catch (error) {
      logger.warn({ mcpToolId: entry.mcpToolId, err: errorMessage(error) }, 'an MCP tool call could not be recorded');
    }
  };

  const callApp = async (tool: McpTool, args: Readonly<Record<string, unknown>>): Promise<ToolCallAnswer> => {
    const connection = await stepConnection(deps, { connectionId: tool.connectionId });
    const outcome = connection.ok
      ? await deps.runner.runAction({
          appKey: tool.appKey as string,
          key: tool.action,
          parameters: args,
          connection: connection.value,
          store: callStore(),
          execution: null,
          run: null,
        })
      : ({ kind: 'failure', failure: { message: connection.reason, retryable: false } } as const);
    const base = { mcpToolId: tool.id, dataIn: args, executionId: null };
    switch (outcome.kind) {
      case 'success':
      case 'stop':
      case 'wait':
        await record({ ...base, dataOut: outcome.output, status: 'success', errorDetails: null });
        return { kind: 'success', output: outcome.output };
      case 'suspend': {
        const message = 'This action waits for something outside a flow’s run: it cannot answer a tool call.';
        await record({ ...base, dataOut: null, status: 'failure', errorDetails: { message } });
        return { kind: 'failure', message };
      }
      case 'failure':
        await record({ ...base, dataOut: null, status: 'failure', errorDetails: failureDetails(outcome.failure) });
        return { kind: 'failure', message: outcome.failure.message };
    }
  };

  /** What a finished run answers: its last `mcp.respondWith` output, else its last step's output. */
  const answerOf = async (run: Execution): Promise<ToolCallAnswer> => {
    const records = await repos.executionSteps.listByExecution(run.id);
    if (run.status === 'failure') {
      const failed = [...records].reverse().find((r) => r.status === 'failure');
      return { kind: 'failure', message: failed?.errorDetails?.message ?? 'The flow’s run failed.' };
    }
    const steps = await stepsOfRun(repos, run);
    const responding = new Set(
      steps.filter((s) => s.appKey === MCP_RESPOND_WITH.appKey && s.key === MCP_RESPOND_WITH.key).map((s) => s.id),
    );
    const succeeded = records.filter((r) => r.status === 'success');
    const responded = succeeded.filter((r) => responding.has(r.stepId)).at(-1);
    if (responded)
      return { kind: 'success', output: (responded.dataOut as { output?: unknown } | null)?.output ?? null };
    return { kind: 'success', output: succeeded.at(-1)?.dataOut ?? null };
  };

  const callFlow = async (
    server: McpServer,
    tool: McpTool,
    { flow, trigger, version }: Triggered,
    args: Readonly<Record<string, unknown>>,
  ): Promise<ToolCallAnswer> => {
    const base = { mcpToolId: tool.id, dataIn: args };
    const refuse = async (message: string, executionId: string | null = null): Promise<ToolCallAnswer> => {
      await record({ ...base, executionId, dataOut: null, status: 'failure', errorDetails: { message } });
      return { kind: 'failure', message };
    };
    if (!(await deps.billing.mayRun(server.userId))) return refuse(messageOf(quotaExceeded()));
    const admitted = deps.intake.enter(flow.id);
    if (!admitted.ok) return refuse(messageOf(admitted.error));
    let executionId: string | undefined;
    try {
      const outcome = await runFlowTrigger(deps, flow.id, trigger, {
        method: 'CALL',
        headers: {},
        query: {},
        body: args,
      });
      if (outcome.kind === 'failure') return refuse(outcome.failure.message);
      const items = outcome.items.slice(0, 1);
      [executionId] = await startRuns(
        deps,
        {
          flowId: flow.id,
          trigger,
          version,
          dataIn: trigger.parameters,
          items: items.length > 0 ? items : [{ data: args }],
          testRun: false,
        },
        { enqueue: false },
      );
      admitted.value.started(executionId ? 1 : 0);
    } finally {
      admitted.value.leave();
    }
    if (!executionId) return refuse('The flow’s run could not be started.');
    const answer = await waitFor(executionId);
    if (answer.kind === 'failure') return refuse(answer.message, executionId);
    const status = answer.kind === 'running' ? 'running' : 'success';
    const dataOut = answer.kind === 'success' ? answer.output : null;
    await record({ ...base, executionId, dataOut, status, errorDetails: null });
    return answer;
  };

  /**
   * Runs the flow's run in this process, as a synchronous webhook's, and waits for its end up to
   * the time limit: a run that waits (a delay, a flow it called) goes on in a worker, and is looked
   * at again until then. Past the limit, the call answers with the run's id; the run goes on.
   */
  const waitFor = async (executionId: string): Promise<ToolCallAnswer> => {
    const limitMs = deps.settings.mcpToolTimeoutMs;
    const deadline = Date.now() + limitMs;
    const running = deps.runExecution(executionId, `mcp:${executionId}`).catch((error: unknown) => {
      // The run is stored: the reaper hands it to a worker once its lease runs out.
      logger.error({ executionId, err: errorMessage(error) }, 'an MCP tool’s run failed to complete');
    });
    await Promise.race([running, sleep(limitMs)]);
    for (;;) {
      const run = await repos.executions.findById(executionId);
      if (run && isFinished(run.status)) return answerOf(run);
      const left = deadline - Date.now();
      if (!run || left <= 0) return { kind: 'running', executionId };
      await sleep(Math.min(RUN_POLL_MS, left));
    }
  };

  return {
    /**
     * The server a token opens, if its owner may still read MCP servers. An unknown token counts
     * against the caller's address, as failed sign-ins do; past the budget, 429.
     */
    async openMcpServer(token: string, clientAddress: string): Promise<Result<McpServer, DomainError>> {
      const server = await repos.mcpServers.findByTokenHash(deps.secrets.hash(token));
      const owner = server && (await repos.users.findById(server.userId));
      if (
        server &&
        owner?.status === 'active' &&
        !authorize({ user: owner, credential: { kind: 'operator', tokenId: '' } }, 'read', 'McpServer')
      )
        return ok(server);
      const limited = await checkRateLimits(deps.rateLimiter, [
        [`mcp:address:${clientAddress}`, deps.settings.rateLimits.mcpTokenPerAddress],
      ]);
      return err(limited ?? notFound('McpServer'));
    },

    async listServedTools(server: McpServer): Promise<ServedTool[]> {
      return (await callables(server)).map((callable) => callable.spec);
    },

    async callServedTool(
      server: McpServer,
      name: string,
      args: Readonly<Record<string, unknown>>,
    ): Promise<ToolCallAnswer> {
      const callable = (await callables(server)).find((c) => c.spec.name === name);
      if (!callable) return { kind: 'unknown' };
      return callable.kind === 'app'
        ? callApp(callable.tool, args)
        : callFlow(server, callable.tool, callable.triggered, args);
    },
  };
};

/** A refusal's words, as the HTTP error body would say them. */
const messageOf = (error: DomainError): string => Object.values(errorMessages(error)).flat().join(' ');
