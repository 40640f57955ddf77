import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Listener triggers: the subscription each published flow with one needs, held by one process at a
 * time under a lease (`flow_listeners`), and the messages it accepted, by the server's id or a hash
 * of their content, so that one redelivered after a crash starts no second run
 * (`listener_messages`, pruned after a while).
 */
export const listeners: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('flow_listeners')
      .addColumn('flow_id', 'text', (c) => c.primaryKey().references('flows.id').onDelete('cascade'))
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('version_id', 'text')
      .addColumn('connection_id', 'text')
      .addColumn('holder', 'text')
      .addColumn('lease_until', t.timestamp)
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('last_error', 'text')
      .addColumn('last_error_at', t.timestamp)
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('flow_listeners_connection_index')
      .on('flow_listeners')
      .column('connection_id')
      .execute();
    await db.schema
      .createTable('listener_messages')
      .addColumn('flow_id', 'text', (c) => c.notNull().references('flows.id').onDelete('cascade'))
      .addColumn('message_key', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('listener_messages_pk', ['flow_id', 'message_key'])
      .execute();
    await db.schema
      .createIndex('listener_messages_created_index')
      .on('listener_messages')
      .column('created_at')
      .execute();
  },
};
