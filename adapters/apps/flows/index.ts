import { type DraftContext, defineApp, noAuth } from '../sdk/index.js';
import { calledByFlow, callFlow, returnResult } from './calls.js';
import { executionFailed, stopExecution } from './failures.js';
import { icon } from './icon.js';

/** The flows of the flow's owner: those its runs may call, or watch for failures. */
const listFlows = async (ctx: DraftContext) =>
  (await ctx.owner.flows()).map((flow) => ({ name: flow.name, value: flow.id }));

export const flows = defineApp({
  key: 'flows',
  name: 'Flows',
  description: 'Call a flow from another, hand back its result, act on failed runs, or stop a run.',
  icon,
  primaryColor: '#0f766e',
  categories: ['flow-control'],
  version: 1,
  auth: noAuth(),
  triggers: [calledByFlow, executionFailed],
  actions: [callFlow, returnResult, stopExecution],
  dynamicData: { listFlows },
});
