import * as v from 'valibot';
import { defineAction, dynamicDropdown, json, parseParameters } from '../sdk/index.js';
import type { UseServer } from './client.js';
import { toolFields } from './tool-fields.js';
import { callTool, listAllTools, toolFailure } from './tools.js';

export const callToolArguments = {
  toolName: dynamicDropdown({ label: 'Tool', required: true, dynamicData: 'listTools' }),
  arguments: json({
    label: 'Arguments',
    description:
      "The tool's arguments as a JSON object, for those its fields do not show; a field filled in wins over the same key here.",
    acceptsVariables: true,
    schema: v.custom<Readonly<Record<string, unknown>>>(
      (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
      'must be a JSON object.',
    ),
  }),
};

/** The step's own argument keys: a tool's properties of the same name are given in `arguments`. */
export const RESERVED_KEYS = Object.keys(callToolArguments);

export const callToolAction = (withClient: UseServer) =>
  defineAction({
    key: 'callTool',
    name: 'Call tool',
    description: "Calls one of the MCP server's tools and returns what it answered.",
    arguments: callToolArguments,
    dynamicFieldsKey: 'listToolFields',
    run: (ctx) =>
      withClient(ctx, async (session) => {
        const { toolName } = ctx.parameters;
        const given = ctx.parameters.arguments ?? {};
        const tool = (await listAllTools(session)).find((t) => t.name === toolName);
        if (!tool) throw new Error(`The MCP server offers no tool named "${toolName}".`);
        const fields = parseParameters(toolFields(tool, RESERVED_KEYS, given), ctx.parameters);
        const filled = Object.entries(fields).filter(([, value]) => value !== undefined);
        const result = await callTool(session, tool.name, { ...given, ...Object.fromEntries(filled) });
        if (result.isError) throw toolFailure(tool.name, result);
        return result;
      }),
  });
