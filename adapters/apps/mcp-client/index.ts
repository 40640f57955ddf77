import { defineApp, describeArguments } from '../sdk/index.js';
import { callToolAction, RESERVED_KEYS } from './call-tool.js';
import { DEFAULT_MCP_TIMEOUTS, type McpSettings, type McpTimeouts, type UseServer, withMcpClient } from './client.js';
import { mcpAuth } from './connection.js';
import { icon } from './icon.js';
import { toolFields } from './tool-fields.js';
import { callTool, listAllTools, toolSpecsOf, toolsByModelName } from './tools.js';

export { STDIO_REFUSED } from './client.js';
export { ToolFailedError } from './tools.js';

export interface McpClientOptions {
  /** Connections may run a command on this server (`MCP_STDIO_ALLOWED`); off by default. */
  readonly stdioAllowed?: boolean;
  readonly timeouts?: Partial<McpTimeouts>;
}

/** The MCP Client app with the instance's settings. */
export const createMcpClientApp = (options: McpClientOptions = {}) => {
  const settings: McpSettings = {
    stdioAllowed: options.stdioAllowed === true,
    timeouts: { ...DEFAULT_MCP_TIMEOUTS, ...options.timeouts },
  };
  const auth = mcpAuth(settings);
  const withClient: UseServer = (ctx, work) => withMcpClient(ctx, auth.read(ctx.auth), settings, work);
  return defineApp({
    key: 'mcp-client',
    name: 'MCP Client',
    description: "Calls the tools of an MCP server, in a flow's steps and for agents.",
    icon,
    primaryColor: '#1f2937',
    categories: ['ai', 'developer-tools'],
    version: 1,
    auth,
    triggers: [],
    actions: [callToolAction(withClient)],
    dynamicData: {
      listTools: (ctx) =>
        withClient(ctx, async (session) =>
          (await listAllTools(session)).map((tool) => ({ name: tool.title ?? tool.name, value: tool.name })),
        ),
    },
    dynamicFields: {
      listToolFields: async (ctx) => {
        const { toolName } = ctx.parameters;
        if (typeof toolName !== 'string' || toolName === '') return [];
        return withClient(ctx, async (session) => {
          const tool = (await listAllTools(session)).find((t) => t.name === toolName);
          return tool ? describeArguments(toolFields(tool, RESERVED_KEYS)) : [];
        });
      },
    },
    toolbox: {
      list: (ctx) => withClient(ctx, async (session) => toolSpecsOf(await listAllTools(session))),
      call: (ctx, name, args) =>
        withClient(ctx, async (session) => {
          const tool = toolsByModelName(await listAllTools(session)).get(name);
          if (!tool) throw new Error(`The MCP server offers no tool named "${name}".`);
          // The model reads a tool's failure (isError) and may try otherwise: it is an answer, not a throw.
          return callTool(session, tool.name, args);
        }),
    },
  });
};

/** As built in: HTTP servers only, until the instance allows commands (`builtInAppsWith`). */
export const mcpClient = createMcpClientApp();
