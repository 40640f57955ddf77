import { CompiledQuery, sql } from 'kysely';
import type { FlowStoreRepository, SeenItemRepository } from '../../../ports/execution-repositories.js';
import { compiledOnce } from './compiled-once.js';
import type { Executor } from './executor.js';
import { likePattern } from './like-pattern.js';

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

/**
 * Postgres, outside a transaction: the same upsert, whose commit does not wait for the WAL flush
 * (`set_config(..., true)` is SET LOCAL for this statement's own transaction). A key that every run
 * writes (a counter, "the last value") is row-locked from the upsert until its commit; waiting for
 * the flush there made every run's write queue behind the previous one's fsync, which capped a
 * flow at one run per flush. Nothing the engine acknowledges is weakened: the WAL is flushed in
 * order, so the step record written after this value (a commit that does wait) makes it durable
 * too; only a PostgreSQL crash in the moment before that can lose it, and then the step runs again.
 */
const STORE_VALUE_UNFLUSHED = `insert into flow_store (flow_id, key, value, updated_at)
select $1, $2, $3::jsonb, $4::timestamptz from (select set_config('synchronous_commit', 'off', true)) as unflushed
on conflict (flow_id, key) do update set value = excluded.value, updated_at = excluded.updated_at`;

export const createFlowStoreRepository = (executor: Executor): FlowStoreRepository => ({
  async get(flowId, key) {
    const [row] = (await storedValue(executor, { flowId, key })).rows;
    return row?.value === null || row?.value === undefined ? undefined : executor.codec.readJson<unknown>(row.value);
  },

  async set(flowId, key, value, now) {
    const { codec } = executor;
    const stored = value === undefined ? null : codec.json(value);
    const at = codec.timestamp(now);
    if (codec.dialect === 'postgres' && !executor.db.isTransaction) {
      await executor.db.executeQuery(CompiledQuery.raw(STORE_VALUE_UNFLUSHED, [flowId, key, stored, at]));
      return;
    }
    await storeValue(executor, { flowId, key, value: stored, at });
  },

  async list(flowId, prefix, { contains }, { page, perPage }) {
    const { db, codec } = executor;
    // The keys with the prefix are one range of the (flow_id, key) key: the next prefix is the
    // same text with its last character one higher.
    const end = `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
    let query = db
      .selectFrom('flow_store')
      .where('flow_id', '=', flowId)
      .where('key', '>=', prefix)
      .where('key', '<', end);
    if (contains) {
      const pattern = likePattern(contains);
      query = query.where(
        sql<boolean>`(lower(substr(key, ${prefix.length + 1})) like ${pattern} escape '\\' or lower(cast(value as text)) like ${pattern} escape '\\')`,
      );
    }
    const { count } = await query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
    const rows = await query
      .select(['key', 'value', 'updated_at'])
      .orderBy('key')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return {
      items: rows.map((row) => ({
        key: row.key.slice(prefix.length),
        value: row.value === null ? null : codec.readJson<unknown>(row.value),
        updatedAt: codec.readTimestamp(row.updated_at),
      })),
      total: codec.readInt(count as string | number),
      page,
      perPage,
    };
  },

  async delete(flowId, key) {
    const result = await executor.db
      .deleteFrom('flow_store')
      .where('flow_id', '=', flowId)
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
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
