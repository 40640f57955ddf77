import type { FlowStoreRepository, SeenItemRepository } from '../../../ports/execution-repositories.js';
import { compiledOnce } from './compiled-once.js';
import type { Executor } from './executor.js';

// The datastore app and the engine's own values: read and written by steps of every run.
const storedValue = compiledOnce(['flowId', 'key'], (db, v) =>
  db.selectFrom('flow_store').select('value').where('flow_id', '=', v.flowId).where('key', '=', v.key),
);
const storeValue = compiledOnce(['flowId', 'key', 'value', 'at'], (db, v) =>
  db
    .insertInto('flow_store')
    .values({ flow_id: v.flowId, key: v.key, value: v.value, updated_at: v.at })
    .onConflict((oc) => oc.columns(['flow_id', 'key']).doUpdateSet({ value: v.value, updated_at: v.at })),
);

export const createFlowStoreRepository = (executor: Executor): FlowStoreRepository => ({
  async get(flowId, key) {
    const [row] = (await storedValue(executor, { flowId, key })).rows;
    return row?.value === null || row?.value === undefined ? undefined : executor.codec.readJson<unknown>(row.value);
  },

  async set(flowId, key, value, now) {
    const { codec } = executor;
    const stored = value === undefined ? null : codec.json(value);
    await storeValue(executor, { flowId, key, value: stored, at: codec.timestamp(now) });
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
