import type { TriggerContext, TriggerItem } from '../sdk/index.js';
import { type Connection, collectNodes } from './graphql.js';

/** Records created this long before the newest one seen are asked for again (search indexes lag). */
const OVERLAP_MS = 5 * 60_000;

interface Created {
  readonly id: string;
  readonly createdAt: string;
}

/**
 * New orders, customers or products, newest first, each with its global id: those created since
 * the newest one the flow saw (Shopify's `created_at:>=` search), less an overlap whose repeats
 * the engine skips by id. The first poll reads one page, to learn what exists.
 */
export const pollCreated = async (
  ctx: TriggerContext<unknown>,
  connection: 'orders' | 'customers' | 'products',
  fields: string,
): Promise<TriggerItem[]> => {
  const storeKey = `shopify:${connection}:createdSince`;
  const stored = await ctx.store.get(storeKey);
  const since = typeof stored === 'number' ? stored : null;
  const query = `query ($after: String, $search: String) {
    ${connection}(first: 50, after: $after, sortKey: CREATED_AT, reverse: true, query: $search) {
      nodes { id createdAt ${fields} }
      pageInfo { hasNextPage endCursor }
    }
  }`;
  const search = since === null ? null : `created_at:>='${new Date(since - OVERLAP_MS).toISOString()}'`;
  const nodes = await collectNodes<Created, Record<typeof connection, Connection<Created>>>(
    ctx.http,
    query,
    { search },
    (data) => data[connection],
    since === null ? { maxItems: 50, maxPages: 1 } : {},
  );
  const newest = Math.max(since ?? 0, ...nodes.map((node) => Date.parse(node.createdAt)).filter(Number.isFinite));
  if (newest > 0) await ctx.store.set(storeKey, newest);
  return nodes.map((node) => ({ id: node.id, data: node }));
};
