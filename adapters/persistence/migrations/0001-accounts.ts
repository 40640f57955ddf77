import { randomUUID } from 'node:crypto';
import { type Kysely, type Migration, sql } from 'kysely';
import { columnTypes } from './column-types.js';

const CATALOG = [
  ['read', 'Flow'],
  ['manage', 'Flow'],
  ['read', 'Connection'],
  ['manage', 'Connection'],
  ['read', 'Execution'],
] as const;

/** Users, roles and permissions, sessions, mailed tokens, the instance row and rate-limit counters. */
export const accounts: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);

    await db.schema
      .createTable('roles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('is_admin', t.bool, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('permissions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('conditions', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint('permissions_role_action_subject_unique', ['role_id', 'action', 'subject'])
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addColumn('deleted_at', t.timestamp)
      .execute();
    // A deleted account frees its address for a new one.
    await db.schema
      .createIndex('users_email_unique')
      .on('users')
      .column('email')
      .unique()
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
    await db.schema.createIndex('users_role_id_index').on('users').column('role_id').execute();

    await db.schema
      .createTable('access_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .addColumn('revoked_at', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('access_tokens_user_id_index').on('access_tokens').column('user_id').execute();

    await db.schema
      .createTable('user_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .addColumn('used_at', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('user_tokens_user_kind_index').on('user_tokens').columns(['user_id', 'kind']).execute();

    await db.schema
      .createTable('config')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('installation_completed', t.bool, (c) => c.notNull())
      .addColumn('registration_enabled', t.bool, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('rate_limit_hits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('window_ends_ms', t.int8, (c) => c.notNull())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .execute();

    const now = new Date().toISOString();
    const no = t.postgres ? false : 0;
    await db
      .insertInto('config')
      .values({ id: 1, installation_completed: no, registration_enabled: no, created_at: now, updated_at: now })
      .execute();

    const roles = [
      { name: 'Admin', description: 'Administers the instance; sees and manages everything.', admin: true },
      { name: 'User', description: 'Builds and runs their own flows and connections.', admin: false },
    ];
    for (const role of roles) {
      const roleId = randomUUID();
      await db
        .insertInto('roles')
        .values({
          id: roleId,
          name: role.name,
          description: role.description,
          is_admin: t.postgres ? role.admin : Number(role.admin),
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('permissions')
        .values(
          CATALOG.map(([action, subject]) => ({
            id: randomUUID(),
            role_id: roleId,
            action,
            subject,
            conditions: JSON.stringify(role.admin ? [] : ['isCreator']),
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
  },
};
