import { type Kysely, type Migration, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Connections' authorizations: the PKCE code verifier of a pending authorization, kept
 * server-side next to the state's hash (sealed like the credentials) until the code is exchanged;
 * and `draft`, true until a connection is first verified (Automatisch's meaning), so that one
 * whose authorization was later revoked stays listed, unverified, for its user to reconnect.
 */
export const connectionAuthorizations: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema.alterTable('connections').addColumn('oauth_code_verifier', 'text').execute();
    await db.schema
      .alterTable('connections')
      .addColumn('draft', t.bool, (c) => c.notNull().defaultTo(true))
      .execute();
    await sql`update connections set draft = not verified`.execute(db);
  },
};
