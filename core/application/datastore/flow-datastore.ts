import type { Actor } from '../../domain/actor.js';
import { DATASTORE_PREFIX, type DatastoreEntry, datastoreKey } from '../../domain/datastore.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { loadFlow } from '../flows/load-flow.js';

/** The values the datastore app keeps for a flow: read with the flow, deleted by who manages it. */
export const makeFlowDatastore = ({ repos }: Pick<CoreDeps, 'repos'>) => ({
  async list(
    actor: Actor,
    flowId: string,
    filter: { readonly q?: string | undefined },
    page: PageRequest,
  ): Promise<Result<Page<DatastoreEntry>, DomainError>> {
    const loaded = await loadFlow(repos, actor, flowId, 'read');
    if (!loaded.ok) return loaded;
    return ok(await repos.flowStore.list(flowId, DATASTORE_PREFIX, { contains: filter.q }, page));
  },

  async delete(actor: Actor, flowId: string, key: string): Promise<Result<void, DomainError>> {
    const loaded = await loadFlow(repos, actor, flowId, 'manage');
    if (!loaded.ok) return loaded;
    return (await repos.flowStore.delete(flowId, datastoreKey(key))) ? ok(undefined) : err(notFound('DatastoreKey'));
  },
});
