import type { Actor } from '../../domain/actor.js';
import { type AgentTool, type AgentToolType, FLOW_TOOL_ACTION } from '../../domain/agent.js';
import { type AppDescription, needsConnection, requiresConnection } from '../../domain/app.js';
import { type DomainError, type FieldErrors, invalidInput } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnAgent, ownConnection } from './own-agent.js';

/** Automatisch's body for a tool, and Conveyor's `askFirst`; `type` is `app` unless said. */
export interface AgentToolInput {
  readonly type?: AgentToolType | undefined;
  readonly appKey?: string | null | undefined;
  readonly connectionId?: string | null | undefined;
  readonly actions?: readonly string[] | undefined;
  readonly flowId?: string | null | undefined;
  readonly askFirst?: readonly string[] | undefined;
}

type ToolSettings = Pick<AgentTool, 'type' | 'appKey' | 'connectionId' | 'actions' | 'flowId' | 'askFirst'>;
type Deps = Pick<CoreDeps, 'repos' | 'apps'>;

const refusal = (fields: FieldErrors): Result<never, DomainError> => err(invalidInput(fields));

/** Those of `names` not among `known`, listed; null when all are. */
const unknownNames = (names: readonly string[], known: readonly string[]): string | null => {
  const unknown = names.filter((name) => !known.includes(name));
  return unknown.length === 0 ? null : unknown.join(', ');
};

/** A flow of the caller's own, run as a sub-flow; `askFirst` may hold only the flow's run. */
const flowTool = async (
  { repos }: Deps,
  actor: Actor,
  input: AgentToolInput,
): Promise<Result<ToolSettings, DomainError>> => {
  if (input.appKey || input.connectionId || (input.actions ?? []).length > 0) {
    return refusal({ type: ['is flow: a flow tool takes no app, connection or actions.'] });
  }
  if (!input.flowId) return refusal({ flowId: ['is required.'] });
  const flow = await repos.flows.findById(input.flowId);
  if (flow?.userId !== actor.user.id) return refusal({ flowId: ['is not one of your flows.'] });
  const askFirst = input.askFirst ?? [];
  const wrong = unknownNames(askFirst, [FLOW_TOOL_ACTION]);
  if (wrong) return refusal({ askFirst: [`may name only ${FLOW_TOOL_ACTION} for a flow tool, not: ${wrong}.`] });
  return ok({ type: 'flow', appKey: null, connectionId: null, actions: [], flowId: flow.id, askFirst });
};

/** The connection an app's tool uses: the caller's own, of that app, when the app takes one. */
const toolConnection = async (
  { repos }: Deps,
  actor: Actor,
  app: AppDescription,
  connectionId: string | null,
): Promise<FieldErrors | null> => {
  if (connectionId === null) return requiresConnection(app) ? { connectionId: ['is required.'] } : null;
  if (!needsConnection(app)) return { connectionId: [`is not used by ${app.name}.`] };
  const connection = await ownConnection(repos, actor, connectionId);
  if (!connection) return { connectionId: ['is not one of your connections.'] };
  return connection.appKey === app.key ? null : { connectionId: [`is not a connection of ${app.name}.`] };
};

/**
 * Actions of an app (`app`: keys of its actions, at least one) or tools of an app with the
 * `toolbox` capability (`mcp`: the server's tool names, which only the server knows; none for all).
 */
const appTool = async (deps: Deps, actor: Actor, input: AgentToolInput): Promise<Result<ToolSettings, DomainError>> => {
  const type = input.type ?? 'app';
  if (input.flowId) return refusal({ flowId: ['is only for flow tools.'] });
  if (!input.appKey) return refusal({ appKey: ['is required.'] });
  const app = deps.apps.find(input.appKey);
  if (!app) return refusal({ appKey: ['is not an app.'] });
  const actions = [...new Set(input.actions ?? [])];
  if (type === 'mcp' && !app.capabilities?.includes('toolbox')) {
    return refusal({ appKey: [`${app.name} offers no tools of its own (it is not an MCP server).`] });
  }
  if (type === 'app') {
    if (actions.length === 0) return refusal({ actions: ['must name at least one action.'] });
    const wrong = unknownNames(
      actions,
      app.actions.map((action) => action.key),
    );
    if (wrong) return refusal({ actions: [`are not actions of ${app.name}: ${wrong}.`] });
  }
  const askFirst = [...new Set(input.askFirst ?? [])];
  // An MCP tool without actions offers every tool of the server, which are not known here.
  const wrong = type === 'mcp' && actions.length === 0 ? null : unknownNames(askFirst, actions);
  if (wrong) return refusal({ askFirst: [`are not among the tool's actions: ${wrong}.`] });
  const connectionId = input.connectionId ?? null;
  const connectionProblem = await toolConnection(deps, actor, app, connectionId);
  if (connectionProblem) return refusal(connectionProblem);
  return ok({ type, appKey: app.key, connectionId, actions, flowId: null, askFirst });
};

/**
 * Gives one of the caller's agents a tool, replacing its tool of the same app or flow (as
 * Automatisch's `createOrUpdateTool` does): the one there keeps its id and takes the new settings.
 */
export const makeAddAgentTool =
  (deps: Pick<CoreDeps, 'repos' | 'apps' | 'uow' | 'clock' | 'ids'>) =>
  async (actor: Actor, agentId: string, input: AgentToolInput): Promise<Result<AgentTool, DomainError>> => {
    const loaded = await loadOwnAgent(deps.repos, actor, agentId, 'manage');
    if (!loaded.ok) return loaded;
    const settings = await (input.type === 'flow' ? flowTool : appTool)(deps, actor, input);
    if (!settings.ok) return settings;
    return deps.uow.run(async (tx) =>
      ok(await tx.agentTools.upsert({ ...settings.value, id: deps.ids.next(), agentId, now: deps.clock.now() })),
    );
  };
