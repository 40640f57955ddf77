import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/** Flows and their steps, users' folders of flows, and administrators' flow templates. */
export const flows: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('flow_folders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      // Name first: a violation is reported against `name`.
      .addUniqueConstraint('flow_folders_name_user_unique', ['name', 'user_id'])
      .execute();

    await db.schema
      .createTable('flows')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('folder_id', 'text', (c) => c.references('flow_folders.id').onDelete('set null'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('active', t.bool, (c) => c.notNull())
      .addColumn('published_at', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('flows_user_updated_index').on('flows').columns(['user_id', 'updated_at']).execute();
    await db.schema.createIndex('flows_folder_index').on('flows').column('folder_id').execute();

    await db.schema
      .createTable('steps')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('flow_id', 'text', (c) => c.notNull().references('flows.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('app_key', 'text')
      .addColumn('key', 'text')
      .addColumn('name', 'text')
      // Not unique: renumbering moves steps one row at a time.
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('parameters', t.json, (c) => c.notNull())
      .addColumn('connection_id', 'text', (c) => c.references('connections.id').onDelete('set null'))
      .addColumn('app_version', 'integer')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('steps_flow_position_index').on('steps').columns(['flow_id', 'position']).execute();
    await db.schema.createIndex('steps_app_key_index').on('steps').column('app_key').execute();
    await db.schema.createIndex('steps_connection_index').on('steps').column('connection_id').execute();

    await db.schema
      .createTable('templates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('flow_data', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
  },
};
