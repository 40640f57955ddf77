import { driveRoot, type GraphPage, graphLink } from '../microsoft-common/index.js';
import {
  type ArgumentMap,
  defineTrigger,
  type HttpClient,
  HttpError,
  type HttpRequest,
  type InferParameters,
  type TriggerDefinition,
} from '../sdk/index.js';

/** A drive item as the delta query answers it. */
export interface DriveItem {
  readonly id: string;
  readonly name?: string;
  readonly createdDateTime?: string;
  readonly lastModifiedDateTime?: string;
  readonly file?: unknown;
  readonly folder?: unknown;
  readonly root?: unknown;
  readonly deleted?: unknown;
  readonly parentReference?: { readonly id?: string };
}

/** Where a poll reads from, as the polling kit's `since`: the link the poll before last ended at. */
interface DeltaState {
  readonly previous?: string;
  readonly latest?: string;
  /** When the flow started watching: items made before are not new. */
  readonly since?: string;
}

/** Pages one poll reads at most: a busy drive continues from where it stopped at the next poll. */
const MAX_PAGES = 20;

/** Follows a delta from a link to its end: the changes, and where the next read starts. */
const readDelta = async (http: HttpClient, from: string) => {
  const items: DriveItem[] = [];
  let request: HttpRequest = graphLink(from);
  for (let pages = 1; ; pages++) {
    const { data } = await http.request<GraphPage<DriveItem>>(request);
    items.push(...(data.value ?? []));
    const delta = data['@odata.deltaLink'];
    const next = data['@odata.nextLink'];
    if (typeof delta === 'string') return { items, end: delta };
    if (typeof next !== 'string')
      throw new Error('Microsoft Graph answered a delta page without a next or delta link.');
    if (pages >= MAX_PAGES) return { items, end: next };
    request = graphLink(next);
  }
};

/** The drive's current state: a delta link that lists nothing before now. */
const latestLink = async (http: HttpClient, drive: string | undefined) => {
  const { data } = await http.request<GraphPage<DriveItem>>({
    path: `${driveRoot(drive)}/root/delta`,
    query: { token: 'latest' },
  });
  const link = data['@odata.deltaLink'];
  if (typeof link !== 'string') throw new Error('Microsoft Graph answered the delta query without a delta link.');
  return link;
};

export interface DeltaTriggerOptions<M extends ArgumentMap> {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly arguments: M;
  /** Whether a changed item starts a run; `since` is when the flow started watching. */
  accept(item: DriveItem, since: string): boolean;
  /** The run's id for an item: the engine starts one run per id. */
  id(item: DriveItem): string;
  /** The time an item is ordered by, newest first. */
  order(item: DriveItem): string;
}

/**
 * A polling trigger over the drive's delta query (`root/delta`). The first poll only takes the
 * drive's current link (`token=latest`), so nothing that exists starts a run; each poll after
 * reads the changes since the link the poll before last ended at (its items known by id, so a
 * poll whose runs were not stored is read again without a second run), keeping the link it
 * ended at. A link Graph no longer knows (410, resync) starts watching again from now.
 */
export const deltaTrigger = <const M extends ArgumentMap & { driveId: unknown; folderId: unknown }>(
  options: DeltaTriggerOptions<M>,
): TriggerDefinition<M, never> =>
  defineTrigger({
    key: options.key,
    name: options.name,
    description: options.description,
    type: 'polling',
    arguments: options.arguments,
    async run(ctx) {
      const { driveId, folderId } = ctx.parameters as InferParameters<M> & {
        driveId?: string | undefined;
        folderId?: string | undefined;
      };
      const stateKey = `delta:${options.key}`;
      const state = ((await ctx.store.get(stateKey)) ?? {}) as DeltaState;
      const start = async () => {
        await ctx.store.set(stateKey, { latest: await latestLink(ctx.http, driveId), since: new Date().toISOString() });
        return [];
      };
      const from = state.previous ?? state.latest;
      if (!from || !state.since) return start();
      let read: Awaited<ReturnType<typeof readDelta>>;
      try {
        read = await readDelta(ctx.http, from);
      } catch (error) {
        if (!(error instanceof HttpError && error.status === 410)) throw error;
        ctx.log.warn({ trigger: options.key }, 'OneDrive asks to resync the delta: watching again from now');
        return start();
      }
      await ctx.store.set(stateKey, { previous: state.latest, latest: read.end, since: state.since });
      const since = state.since;
      return read.items
        .filter((item) => !item.deleted && !item.root && (!folderId || item.parentReference?.id === folderId))
        .filter((item) => options.accept(item, since))
        .sort((a, b) => options.order(b).localeCompare(options.order(a)))
        .map((item) => ({ id: options.id(item), data: item }));
    },
  });
