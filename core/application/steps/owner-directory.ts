import type { FlowChoice, OwnerDirectory } from '../../../ports/app-catalog.js';
import type { Repositories } from '../../../ports/repositories.js';

/** A dropdown longer than this helps nobody; the most recently changed flows are the ones listed. */
export const FLOW_CHOICES = 1000;

const byName = (a: FlowChoice, b: FlowChoice) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/**
 * What a step's dynamic data may list of its flow's owner: the owner's, not the editor's, since
 * the flow runs as its owner (an administrator editing it sees what the owner's runs may use).
 */
export const ownerDirectory = (repos: Pick<Repositories, 'flows'>, userId: string): OwnerDirectory => ({
  async flows() {
    const page = await repos.flows.list({ ownerId: userId }, { page: 1, perPage: FLOW_CHOICES });
    return page.items.map((flow) => ({ id: flow.id, name: flow.name })).sort(byName);
  },
});
