import {
  defineAction,
  defineTrigger,
  dropdown,
  dynamicDropdown,
  jsonOrText,
  keyValueList,
  runOf,
  type Store,
  stopFlow,
  suspendUntil,
  text,
} from '../sdk/index.js';

/** The flow store's key of the last input the flow was called with (apart from the datastore's keys). */
export const LAST_INPUT = 'flows:lastInput';

/**
 * How long a caller sleeps before it looks at its called run again on its own: the engine wakes it
 * when that run ends, so this only bounds how long a lost wake could hold it.
 */
export const CALL_RECHECK_MS = 60 * 60_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The item of a trigger the engine starts with a call (`ctx.webhook`: another flow's, an MCP
 * client's): the call's object, kept under `key` so that testing the trigger in the editor shows
 * the last one (or no item before any call).
 */
export const calledWith = async (
  ctx: { readonly webhook: { readonly body: unknown } | null; readonly store: Store },
  key: string,
) => {
  if (ctx.webhook) {
    const input = isObject(ctx.webhook.body) ? ctx.webhook.body : {};
    await ctx.store.set(key, input);
    return [{ data: input }];
  }
  const last = await ctx.store.get(key);
  return last === undefined ? [] : [{ data: last }];
};

export const calledByFlow = defineTrigger({
  key: 'calledByFlow',
  name: 'Called by another flow',
  description:
    'Starts the flow when another flow calls it with "Call a flow"; the caller\'s input is the output. Publish the flow to make it callable.',
  arguments: {},
  run: (ctx) => calledWith(ctx, LAST_INPUT),
});

export const callFlow = defineAction({
  key: 'callFlow',
  name: 'Call a flow',
  description:
    'Runs another of your flows (published, starting with "Called by another flow") with an input, and waits for its result or not.',
  arguments: {
    flowId: dynamicDropdown({ label: 'Flow', required: true, dynamicData: 'listFlows' }),
    input: keyValueList({
      label: 'Input',
      acceptsVariables: true,
      description: 'The called flow starts with an object of these keys and (text) values.',
    }),
    waitForResult: dropdown({
      label: 'Wait for the result',
      required: true,
      default: true,
      options: [
        { label: 'Yes', value: true },
        { label: 'No', value: false },
      ],
      description: 'Yes: this flow goes on once the called one ended, with its result. No: it goes on at once.',
    }),
  },
  async run(ctx) {
    const run = runOf(ctx);
    const { flowId, input = [], waitForResult } = ctx.parameters;
    const called = await run.callFlow(flowId, Object.fromEntries(input.map((row) => [row.key, row.value])));
    if (!called.ok) throw new Error(`The flow could not be called: ${called.reason}`);
    const { executionId } = called;
    if (!waitForResult) return { executionId, status: 'running', result: null };
    const state = await run.calledRun(executionId);
    if (!state) throw new Error('The called run cannot be found.');
    if (state.status === 'success') return { executionId, status: state.status, result: state.result };
    if (state.status === 'failure') throw new Error(`The called flow failed: ${state.error ?? 'no reason was given.'}`);
    return suspendUntil(new Date(Date.now() + CALL_RECHECK_MS));
  },
});

export const returnResult = defineAction({
  key: 'returnResult',
  name: 'Return a result',
  description: 'Ends this flow and hands the result to the flow that called it (a flow that was not called just ends).',
  arguments: {
    result: text({
      label: 'Result',
      acceptsVariables: true,
      description: 'JSON is handed over as JSON, other text as text.',
    }),
  },
  async run(ctx) {
    return stopFlow({ result: jsonOrText(ctx.parameters.result) });
  },
});
