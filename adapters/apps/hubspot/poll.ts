import type { TriggerContext, TriggerItem } from '../sdk/index.js';

interface CrmObject {
  readonly id: string;
  readonly properties: Readonly<Record<string, string | null>>;
}

interface SearchPage {
  readonly results: readonly CrmObject[];
  readonly paging?: { readonly next?: { readonly after?: string } };
}

/** Objects created this long before the newest one seen are asked for again: search indexes lag. */
const OVERLAP_MS = 5 * 60_000;
const PAGE_SIZE = 100;
/** The search API serves at most 10,000 results a query; a poll stops well before. */
const MAX_PAGES = 10;

/**
 * New CRM objects (contacts, deals, companies) through the search API, newest first: those
 * created since the newest one the flow saw, less an overlap whose repeats the engine skips by id.
 * The first poll reads one page, to learn what exists.
 */
export const pollNewObjects = async (
  ctx: TriggerContext<unknown>,
  objectType: 'contacts' | 'deals' | 'companies',
  properties: readonly string[],
): Promise<TriggerItem[]> => {
  const storeKey = `hubspot:${objectType}:createdSince`;
  const stored = await ctx.store.get(storeKey);
  const since = typeof stored === 'number' ? stored : null;
  const found: CrmObject[] = [];
  let after: string | undefined;
  for (let page = 0; page < (since === null ? 1 : MAX_PAGES); page++) {
    const { data } = await ctx.http.request<SearchPage>({
      method: 'POST',
      path: `/crm/v3/objects/${objectType}/search`,
      body: {
        filterGroups:
          since === null
            ? []
            : [{ filters: [{ propertyName: 'createdate', operator: 'GTE', value: String(since - OVERLAP_MS) }] }],
        sorts: [{ propertyName: 'createdate', direction: 'DESCENDING' }],
        properties: ['createdate', ...properties],
        limit: PAGE_SIZE,
        ...(after !== undefined && { after }),
      },
    });
    found.push(...data.results);
    after = data.paging?.next?.after;
    if (after === undefined || data.results.length === 0) break;
  }
  const created = found.map((object) => Date.parse(object.properties.createdate ?? '')).filter(Number.isFinite);
  const newest = Math.max(since ?? 0, ...created);
  if (newest > 0) await ctx.store.set(storeKey, newest);
  return found.map((object) => ({ id: object.id, data: object }));
};
