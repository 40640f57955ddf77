import { defineAction, defineTrigger, dropdown, dynamicMultiSelect, stopFlow, text } from '../sdk/index.js';

/** The flow store's key of the last failure the trigger was handed (apart from the datastore's keys). */
export const LAST_FAILURE = 'flows:lastFailure';

/** What testing the trigger shows before any run failed: the shape of a real event. */
export const SAMPLE_FAILURE = {
  flow: { id: '00000000-0000-4000-8000-000000000001', name: 'An example flow' },
  execution: { id: '00000000-0000-4000-8000-000000000002', startedAt: '2026-01-01T09:00:00.000Z' },
  step: {
    id: '00000000-0000-4000-8000-000000000003',
    position: 2,
    appKey: 'http-request',
    key: 'customRequest',
    name: 'Send the order',
  },
  error: { message: 'Request failed with status 503.' },
} as const;

export const executionFailed = defineTrigger({
  key: 'executionFailed',
  name: 'Execution failed',
  description: 'Starts the flow when a run of one of your flows fails, with the flow, the run, the step and the error.',
  arguments: {
    flowIds: dynamicMultiSelect({
      label: 'Flows',
      dynamicData: 'listFlows',
      description: 'None chosen: any of your flows.',
    }),
  },
  async run(ctx) {
    if (ctx.webhook) {
      await ctx.store.set(LAST_FAILURE, ctx.webhook.body);
      return [{ data: ctx.webhook.body }];
    }
    // Testing the trigger in the editor shows the last failure it was handed, or an example.
    const last = await ctx.store.get(LAST_FAILURE);
    return [{ data: last === undefined ? SAMPLE_FAILURE : last }];
  },
});

export const stopExecution = defineAction({
  key: 'stopExecution',
  name: 'Stop execution',
  description: 'Ends the run here, as a success or as a failure, without running the steps after it.',
  arguments: {
    status: dropdown({
      label: 'End as',
      required: true,
      default: 'success',
      options: [
        { label: 'Success', value: 'success' },
        { label: 'Failure', value: 'failure' },
      ],
    }),
    message: text({ label: 'Message', acceptsVariables: true, description: 'A failure shows it as its reason.' }),
  },
  async run(ctx) {
    const { status } = ctx.parameters;
    const message = ctx.parameters.message ?? null;
    return stopFlow({ status, message }, status === 'failure' ? (message ?? 'The flow stopped its run.') : null);
  },
});
