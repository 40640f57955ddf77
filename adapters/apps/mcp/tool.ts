import { calledWith } from '../flows/calls.js';
import { defineAction, defineTrigger, text } from '../sdk/index.js';

/** The flow store's key of the last arguments an MCP client called the flow's tool with. */
export const LAST_CALL = 'mcp:lastCall';

/**
 * A flow as a tool of MCP servers (Automatisch's keys and arguments). Its runs are started by the
 * MCP endpoint, as the `flows` app's `calledByFlow` by another flow: the engine hands the call's
 * arguments to the trigger, which makes them its item.
 */
export const mcpTool = defineTrigger({
  key: 'mcpTool',
  name: 'MCP Tool',
  description:
    'Starts the flow when an MCP client calls it as a tool of one of your MCP servers; the call’s arguments are the output. Publish the flow, then add it to a server.',
  arguments: {
    toolName: text({
      label: 'Tool Name',
      required: true,
      description: 'The name MCP clients call the tool by (e.g. "search_files", "create_task").',
    }),
    toolDescription: text({
      label: 'Tool Description',
      required: true,
      description: 'A clear description of what this tool does.',
    }),
    inputSchema: text({
      label: 'Input Schema (JSON)',
      description: 'A JSON Schema of the tool’s arguments (an object); without one, the tool takes any object.',
    }),
  },
  run: (ctx) => calledWith(ctx, LAST_CALL),
});

/** What the tool call answers: the last of these steps a run took, else the run's last step's output. */
export const respondWith = defineAction({
  key: 'respondWith',
  name: 'Respond with',
  description: 'Answers the MCP tool call that started the flow with this output.',
  arguments: {
    output: text({
      label: 'Output',
      required: true,
      acceptsVariables: true,
      description: 'What the MCP client receives as the tool’s result.',
    }),
  },
  async run(ctx) {
    return { output: ctx.parameters.output };
  },
});
