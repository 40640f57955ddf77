import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import { MCP_TOOL_TRIGGER, type McpTool, type McpToolExecution, type McpToolType } from '../../domain/mcp-server.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import { loadTriggered } from '../../engine/flow-triggers.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnMcpServer } from './own-mcp-server.js';

/** Automatisch's body of `POST /mcp-servers/:id/tools`. */
export interface NewMcpTool {
  readonly type: McpToolType;
  readonly appKey?: string | null | undefined;
  readonly action?: string | null | undefined;
  readonly connectionId?: string | null | undefined;
  readonly flowId?: string | null | undefined;
}

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps'>;

type ToolFields = Pick<McpTool, 'type' | 'appKey' | 'action' | 'connectionId' | 'flowId'>;

const refuse = (field: string, message: string): Result<never, DomainError> =>
  err(invalidInput({ [field]: [message] }));

/** An app's action with the caller's connection of that app (none for an app that takes none). */
const appTool = async (deps: Deps, actor: Actor, input: NewMcpTool): Promise<Result<ToolFields, DomainError>> => {
  const app = input.appKey ? deps.apps.find(input.appKey) : null;
  if (!app) return refuse('appKey', 'There is no such app.');
  if (!input.action || !app.actions.some((action) => action.key === input.action))
    return refuse('action', `The app ${app.name} has no such action.`);
  let connectionId: string | null = null;
  if (app.auth.kind !== 'none') {
    if (!input.connectionId) return refuse('connectionId', `The app ${app.name} needs a connection.`);
    const connection = await deps.repos.connections.findById(input.connectionId);
    // Another user's connection reads as missing, as any of theirs does.
    if (connection?.userId !== actor.user.id || connection.ownerRemoved || connection.appKey !== app.key)
      return refuse('connectionId', `There is no such connection of the app ${app.name}.`);
    connectionId = connection.id;
  }
  return ok({ type: 'app', appKey: app.key, action: input.action, connectionId, flowId: null });
};

/** A flow of the caller's that starts with the `mcp` app's tool trigger: the tool takes its name. */
const flowTool = async (deps: Deps, actor: Actor, input: NewMcpTool): Promise<Result<ToolFields, DomainError>> => {
  const loaded = input.flowId ? await loadTriggered(deps, input.flowId) : null;
  if (!loaded || loaded.flow.userId !== actor.user.id) return refuse('flowId', 'There is no such flow.');
  const { trigger } = loaded;
  if (trigger.appKey !== MCP_TOOL_TRIGGER.appKey || trigger.key !== MCP_TOOL_TRIGGER.key)
    return refuse('flowId', 'The flow does not start with the MCP app’s “MCP Tool” trigger.');
  const { toolName } = trigger.parameters;
  const action = typeof toolName === 'string' && toolName.trim() !== '' ? toolName.trim() : `flow_${loaded.flow.id}`;
  return ok({ type: 'flow', appKey: null, action, connectionId: null, flowId: loaded.flow.id });
};

/** The tools of the caller's MCP servers, and the calls MCP clients made of them. */
export const makeMcpToolManagement = (deps: Deps) => {
  const { repos, uow, clock, ids } = deps;
  return {
    async listMcpTools(actor: Actor, mcpServerId: string): Promise<Result<McpTool[], DomainError>> {
      const loaded = await loadOwnMcpServer(repos, actor, mcpServerId, 'read');
      return loaded.ok ? ok(await repos.mcpTools.listByServer(mcpServerId)) : loaded;
    },

    /**
     * Adds a tool: an app's action (the app has it; the connection is the caller's, of that app) or
     * a flow (the caller's, starting with `mcp.mcpTool`). A server has each action or tool name once.
     */
    async createMcpTool(actor: Actor, mcpServerId: string, input: NewMcpTool): Promise<Result<McpTool, DomainError>> {
      const loaded = await loadOwnMcpServer(repos, actor, mcpServerId, 'manage');
      if (!loaded.ok) return loaded;
      const fields = input.type === 'app' ? await appTool(deps, actor, input) : await flowTool(deps, actor, input);
      if (!fields.ok) return fields;
      const taken = (await repos.mcpTools.listByServer(mcpServerId)).some(
        (tool) => tool.action === fields.value.action || (tool.flowId !== null && tool.flowId === fields.value.flowId),
      );
      if (taken) return refuse('action', 'The server has this tool already.');
      return uow.run(async (tx) =>
        ok(await tx.mcpTools.insert({ id: ids.next(), mcpServerId, ...fields.value, now: clock.now() })),
      );
    },

    async deleteMcpTool(actor: Actor, mcpServerId: string, mcpToolId: string): Promise<Result<void, DomainError>> {
      const loaded = await loadOwnMcpServer(repos, actor, mcpServerId, 'manage');
      if (!loaded.ok) return loaded;
      return uow.run(async (tx) =>
        (await tx.mcpTools.delete(mcpServerId, mcpToolId)) ? ok(undefined) : err(notFound('McpTool')),
      );
    },

    async listMcpToolExecutions(
      actor: Actor,
      mcpServerId: string,
      page: PageRequest,
    ): Promise<Result<Page<McpToolExecution>, DomainError>> {
      const loaded = await loadOwnMcpServer(repos, actor, mcpServerId, 'read');
      return loaded.ok ? ok(await repos.mcpToolExecutions.listByServer(mcpServerId, page)) : loaded;
    },
  };
};
