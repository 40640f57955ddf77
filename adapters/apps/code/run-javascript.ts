import { code, defineAction, keyValueList } from '../sdk/index.js';
import type { SandboxLimits } from './sandbox.js';
import type { SandboxPool } from './sandbox-pool.js';

const EXAMPLE = `async function code(inputs) {
  return { greeting: \`Hello, \${inputs.name}!\` };
}`;

export const runJavascript = (limits: SandboxLimits, pool: SandboxPool) =>
  defineAction({
    key: 'runJavascript',
    name: 'Run JavaScript',
    description: 'Runs your JavaScript function code(inputs) in a sandbox and returns its result.',
    arguments: {
      inputs: keyValueList({
        label: 'Inputs',
        acceptsVariables: true,
        description: 'Passed to code(inputs) as an object of text values, e.g. inputs.name.',
      }),
      codeSnippet: code({
        label: 'Code',
        language: 'javascript',
        required: true,
        placeholder: EXAMPLE,
        description:
          `Define code(inputs); it may be async. It runs without Node, files or network, for at most ` +
          `${limits.timeoutMs / 1000} s and ${limits.memoryBytes / (1024 * 1024)} MiB; what it returns must be JSON.`,
      }),
    },
    async run(ctx) {
      const { inputs = [], codeSnippet } = ctx.parameters;
      const output = await pool.run(
        { source: codeSnippet, inputs: Object.fromEntries(inputs.map((i) => [i.key, i.value])) },
        limits,
        // One flow's runaway code must not hold every worker: the pool shares them out by flow.
        { signal: ctx.signal, ...(ctx.execution && { group: ctx.execution.flowId }) },
      );
      return { output };
    },
  });
