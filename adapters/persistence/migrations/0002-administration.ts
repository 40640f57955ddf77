import { type Kysely, type Migration, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/** API tokens, and the instance configuration beyond installation and registration. */
export const administration: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('masked_token', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('api_tokens_user_id_index').on('api_tokens').column('user_id').execute();

    await db.schema
      .alterTable('config')
      .addColumn('enable_templates', t.bool, (c) => c.notNull().defaultTo(sql`false`))
      .execute();
    await db.schema
      .alterTable('config')
      .addColumn('appearance', t.json, (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
};
