import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallAnswer } from '../../core/application/mcp-servers/serve-mcp.js';
import type { McpServer } from '../../core/domain/mcp-server.js';
import { RELEASE } from '../../core/domain/release.js';
import type { HttpDeps } from './context.js';

/**
 * The MCP SDK's side of `/api/v1/mcp/:mcpServerToken`, loaded on the first MCP request: the SDK is
 * big, and most instances serve no MCP at all.
 */

const textOf = (output: unknown) =>
  typeof output === 'string' ? output : (JSON.stringify(output ?? null, null, 2) ?? 'null');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A tool's answer as MCP carries it: a failure is a result with `isError`, never a protocol error. */
const resultOf = (name: string, answer: ToolCallAnswer): CallToolResult => {
  switch (answer.kind) {
    case 'unknown':
      throw new McpError(ErrorCode.InvalidParams, `There is no tool named ${name}.`);
    case 'success':
      return {
        content: [{ type: 'text', text: textOf(answer.output) }],
        ...(isRecord(answer.output) && { structuredContent: answer.output }),
      };
    case 'failure':
      return { content: [{ type: 'text', text: answer.message }], isError: true };
    case 'running': {
      const text = `The flow is still running after the time limit; its run goes on as execution ${answer.executionId}.`;
      return {
        content: [{ type: 'text', text }],
        structuredContent: { executionId: answer.executionId, status: 'running' },
      };
    }
  }
};

/** An SDK server over one MCP server's tools, for one request. */
const sdkServerOf = ({ useCases }: Pick<HttpDeps, 'useCases'>, server: McpServer) => {
  const sdk = new Server({ name: 'Conveyor', version: RELEASE }, { capabilities: { tools: {} } });
  sdk.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await useCases.listServedTools(server)) as Tool[],
  }));
  sdk.setRequestHandler(CallToolRequestSchema, async (request) =>
    resultOf(
      request.params.name,
      await useCases.callServedTool(server, request.params.name, request.params.arguments ?? {}),
    ),
  );
  return sdk;
};

/** Answers one MCP request over one server's tools, with a server and transport of its own. */
export const answerMcpRequest = async (
  deps: Pick<HttpDeps, 'useCases'>,
  server: McpServer,
  request: Request,
  parsedBody: unknown,
): Promise<Response> => {
  const sdk = sdkServerOf(deps, server);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await sdk.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await sdk.close();
  }
};
