import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Instant triggers: the hook each published flow registered with its vendor (`flow_hooks`). No
 * foreign key to the flow or the connection: the row is what the vendor still holds, and must
 * survive the flow's deletion until the hook is removed with it.
 */
export const flowHooks: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('flow_hooks')
      .addColumn('flow_id', 'text', (c) => c.primaryKey())
      .addColumn('app_key', 'text', (c) => c.notNull())
      .addColumn('trigger_key', 'text', (c) => c.notNull())
      .addColumn('connection_id', 'text')
      .addColumn('parameters', t.json, (c) => c.notNull())
      .addColumn('webhook_url', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
  },
};
