import { type DraftContext, defineApp, noAuth } from '../sdk/index.js';
import { runAgent } from './actions.js';
import { icon } from './icon.js';

/** The agents of the flow's owner, by name. */
const listAgents = async (ctx: DraftContext) =>
  (await ctx.owner.agents()).map((agent) => ({ name: agent.name, value: agent.id }));

export const agents = defineApp({
  key: 'agents',
  name: 'Agents',
  description: 'Run one of your agents (a model with instructions and tools) as a step of a flow.',
  icon,
  primaryColor: '#6366f1',
  categories: ['ai'],
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [runAgent],
  dynamicData: { listAgents },
});
