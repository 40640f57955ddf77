import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSpec } from '../sdk/index.js';
import type { McpSession } from './client.js';

/** Enough for any server a person would connect; a server paging for ever is cut off. */
const MAX_PAGES = 20;

/** What the models accept as a tool's name. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A failure's text at most this long: enough to read, short enough for the run's record. */
const MAX_REASON_CHARS = 2_000;

/** Every tool the server offers, page after page. */
export const listAllTools = async (session: McpSession): Promise<Tool[]> => {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await session.client.listTools(cursor === undefined ? {} : { cursor }, {
      signal: session.signal,
      timeout: session.timeouts.listMs,
    });
    tools.push(...answer.tools);
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return tools;
};

/**
 * The tools by the names a model may use: a tool's own where it fits the models' rule, else one
 * made to fit (`files.read` → `files_read`), unique. Built from the list alone, so that listing and
 * calling agree on every name without keeping anything between them.
 */
export const toolsByModelName = (tools: readonly Tool[]): Map<string, Tool> => {
  const byName = new Map<string, Tool>();
  for (const tool of tools) if (TOOL_NAME.test(tool.name)) byName.set(tool.name, tool);
  for (const tool of tools) {
    if (TOOL_NAME.test(tool.name)) continue;
    const base = tool.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'tool';
    let name = base;
    for (let n = 2; byName.has(name); n++) name = `${base}_${n}`;
    byName.set(name, tool);
  }
  return byName;
};

export const toolSpecsOf = (tools: readonly Tool[]): ToolSpec[] =>
  [...toolsByModelName(tools)].map(([name, tool]) => ({
    name,
    description: tool.description ?? tool.title ?? tool.name,
    inputSchema: tool.inputSchema,
  }));

/** What a tool answered, as a step's output and an agent's tool result hold it. */
export interface ToolResult {
  readonly content: readonly unknown[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError: boolean;
}

export const callTool = async (
  session: McpSession,
  name: string,
  args: Readonly<Record<string, unknown>>,
): Promise<ToolResult> => {
  const result = (await session.client.callTool({ name, arguments: { ...args } }, undefined, {
    signal: session.signal,
    timeout: session.timeouts.callMs,
  })) as CallToolResult;
  return {
    content: result.content ?? [],
    ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
    isError: result.isError === true,
  };
};

/** A tool that answered with `isError`: its own words, which another attempt would not change. */
export class ToolFailedError extends Error {
  override readonly name = 'ToolFailedError';
}

export const toolFailure = (name: string, result: ToolResult): ToolFailedError => {
  const text = result.content
    .filter((item): item is { type: 'text'; text: string } => (item as { type?: unknown }).type === 'text')
    .map((item) => item.text)
    .join('\n')
    .trim();
  const reason = text || (result.structuredContent ? JSON.stringify(result.structuredContent) : '');
  return new ToolFailedError(
    reason ? `The tool ${name} failed: ${reason.slice(0, MAX_REASON_CHARS)}` : `The tool ${name} failed.`,
  );
};
