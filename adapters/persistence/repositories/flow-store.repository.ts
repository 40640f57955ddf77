import type { FlowStoreRepository, SeenItemRepository } from '../../../ports/execution-repositories.js';
import type { Executor } from './executor.js';

export const createFlowStoreRepository = ({ db, codec }: Executor): FlowStoreRepository => ({
  async get(flowId, key) {
    const row = await db
      .selectFrom('flow_store')
      .select('value')
      .where('flow_id', '=', flowId)
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value === null || row?.value === undefined ? undefined : codec.readJson<unknown>(row.value);
  },

  async set(flowId, key, value, now) {
    const stored = value === undefined ? null : codec.json(value);
    const at = codec.timestamp(now);
    await db
      .insertInto('flow_store')
      .values({ flow_id: flowId, key, value: stored, updated_at: at })
      .onConflict((oc) => oc.columns(['flow_id', 'key']).doUpdateSet({ value: stored, updated_at: at }))
      .execute();
  },
});

export const createSeenItemRepository = ({ db, codec }: Executor): SeenItemRepository => ({
  async remember(flowId, internalIds, now) {
    if (internalIds.length === 0) return [];
    const unique = [...new Set(internalIds)];
    // Inserting and reading back what was inserted is one statement on both dialects.
    const inserted = await db
      .insertInto('seen_items')
      .values(unique.map((id) => ({ flow_id: flowId, internal_id: id, created_at: codec.timestamp(now) })))
      .onConflict((oc) => oc.columns(['flow_id', 'internal_id']).doNothing())
      .returning('internal_id')
      .execute();
    const fresh = new Set(inserted.map((r) => r.internal_id));
    return unique.filter((id) => fresh.has(id));
  },
});
