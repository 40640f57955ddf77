import type { Repositories } from '../../../ports/repositories.js';

/** A dropdown longer than this helps nobody; the most recently changed flows are the ones listed. */
export const FLOW_CHOICES = 1000;

/** A user's flows, by name, as the flows app's dropdowns list them. */
export const ownerFlows = async (repos: Pick<Repositories, 'flows'>, userId: string) => {
  const page = await repos.flows.list({ ownerId: userId }, { page: 1, perPage: FLOW_CHOICES });
  return page.items
    .map((flow) => ({ id: flow.id, name: flow.name }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
};

/** A user's agents, by name, as the agents app's dropdown lists them. */
export const ownerAgents = async (repos: Pick<Repositories, 'agents'>, userId: string) => {
  const page = await repos.agents.listByUser(userId, { page: 1, perPage: FLOW_CHOICES });
  return page.items
    .map((agent) => ({ id: agent.id, name: agent.name }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
};
