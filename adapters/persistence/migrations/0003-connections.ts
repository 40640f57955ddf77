import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/** Connections to apps, administrators' app settings and OAuth clients. Secrets are stored sealed. */
export const connections: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('app_configs')
      .addColumn('app_key', 'text', (c) => c.primaryKey())
      .addColumn('disabled', t.bool, (c) => c.notNull())
      .addColumn('use_only_predefined_auth_clients', t.bool, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('oauth_clients')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('app_key', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('active', t.bool, (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint('oauth_clients_app_key_name_unique', ['app_key', 'name'])
      .execute();

    await db.schema
      .createTable('connections')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('app_key', 'text', (c) => c.notNull())
      .addColumn('oauth_client_id', 'text', (c) => c.references('oauth_clients.id'))
      .addColumn('credentials', 'text', (c) => c.notNull())
      .addColumn('verified', t.bool, (c) => c.notNull())
      .addColumn('screen_name', 'text')
      .addColumn('oauth_state_hash', 'text')
      .addColumn('oauth_state_expires_at', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('connections_user_app_index')
      .on('connections')
      .columns(['user_id', 'app_key'])
      .execute();
    await db.schema.createIndex('connections_app_key_index').on('connections').column('app_key').execute();
  },
};
