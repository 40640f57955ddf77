import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Forms (Automatisch's `forms` table): a user's form, whose page takes a visitor's answers and
 * starts the flows that listen for it, or hands them to a run waiting for them. Its fields are one
 * JSON document, as Automatisch keeps them.
 */
export const forms: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('forms')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text')
      .addColumn('description', 'text')
      .addColumn('response_message', 'text')
      .addColumn('submit_button_text', 'text')
      .addColumn('fields', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('forms_user_created_index').on('forms').columns(['user_id', 'created_at']).execute();
  },
};
