import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Single sign-on: identity providers and their role mappings, which user a provider's name id is,
 * AuthnRequests waiting for their answer, assertions already used, and the SAML session each
 * access token was issued for. Requests, assertions and sessions carry their expiry, for pruning.
 */
export const saml: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('saml_auth_providers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('certificate', 'text', (c) => c.notNull())
      .addColumn('signature_algorithm', 'text', (c) => c.notNull())
      .addColumn('issuer', 'text', (c) => c.notNull().unique())
      .addColumn('entry_point', 'text', (c) => c.notNull())
      .addColumn('firstname_attribute_name', 'text', (c) => c.notNull())
      .addColumn('surname_attribute_name', 'text', (c) => c.notNull())
      .addColumn('email_attribute_name', 'text', (c) => c.notNull())
      .addColumn('role_attribute_name', 'text', (c) => c.notNull())
      .addColumn('default_role_id', 'text', (c) => c.notNull().references('roles.id'))
      .addColumn('active', t.bool, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('saml_auth_providers_default_role_id_index')
      .on('saml_auth_providers')
      .column('default_role_id')
      .execute();

    await db.schema
      .createTable('saml_role_mappings')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('saml_auth_provider_id', 'text', (c) =>
        c.notNull().references('saml_auth_providers.id').onDelete('cascade'),
      )
      .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
      .addColumn('remote_role_name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint('saml_role_mappings_provider_remote_role_unique', [
        'saml_auth_provider_id',
        'remote_role_name',
      ])
      .execute();
    await db.schema
      .createIndex('saml_role_mappings_role_id_index')
      .on('saml_role_mappings')
      .column('role_id')
      .execute();

    await db.schema
      .createTable('saml_identities')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('saml_auth_provider_id', 'text', (c) =>
        c.notNull().references('saml_auth_providers.id').onDelete('cascade'),
      )
      .addColumn('remote_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint('saml_identities_provider_remote_id_unique', ['saml_auth_provider_id', 'remote_id'])
      .execute();
    await db.schema.createIndex('saml_identities_user_id_index').on('saml_identities').column('user_id').execute();

    await db.schema
      .createTable('saml_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('saml_auth_provider_id', 'text', (c) =>
        c.notNull().references('saml_auth_providers.id').onDelete('cascade'),
      )
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('saml_requests_expires_at_index').on('saml_requests').column('expires_at').execute();

    await db.schema
      .createTable('saml_used_assertions')
      .addColumn('saml_auth_provider_id', 'text', (c) =>
        c.notNull().references('saml_auth_providers.id').onDelete('cascade'),
      )
      .addColumn('assertion_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('saml_used_assertions_pk', ['saml_auth_provider_id', 'assertion_id'])
      .execute();
    await db.schema
      .createIndex('saml_used_assertions_expires_at_index')
      .on('saml_used_assertions')
      .column('expires_at')
      .execute();

    await db.schema
      .createTable('saml_sessions')
      .addColumn('access_token_id', 'text', (c) => c.primaryKey().references('access_tokens.id').onDelete('cascade'))
      .addColumn('saml_auth_provider_id', 'text', (c) =>
        c.notNull().references('saml_auth_providers.id').onDelete('cascade'),
      )
      .addColumn('name_id', 'text', (c) => c.notNull())
      .addColumn('session_index', 'text')
      .addColumn('expires_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('saml_sessions_provider_name_id_index')
      .on('saml_sessions')
      .columns(['saml_auth_provider_id', 'name_id'])
      .execute();
    await db.schema.createIndex('saml_sessions_expires_at_index').on('saml_sessions').column('expires_at').execute();
  },
};
