import type { Selectable } from 'kysely';
import type { Credentials } from '../../../core/domain/app.js';
import type { Connection } from '../../../core/domain/connection.js';
import type { ConnectionRepository } from '../../../ports/repositories.js';
import type { ConnectionsTable } from '../schema.js';
import type { Executor } from './executor.js';

/** The row id is the sealed credentials' context: a ciphertext copied to another row does not open. */
const sealContext = (id: string) => `connection:${id}`;

export const createConnectionRepository = ({ db, codec, secretBox }: Executor): ConnectionRepository => {
  const toConnection = (row: Selectable<ConnectionsTable>): Connection => ({
    id: row.id,
    appKey: row.app_key,
    userId: row.user_id,
    oauthClientId: row.oauth_client_id,
    verified: codec.readBool(row.verified),
    screenName: row.screen_name,
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });
  const seal = (id: string, credentials: Credentials) => secretBox.seal(JSON.stringify(credentials), sealContext(id));

  return {
    async insert(connection) {
      const now = codec.timestamp(connection.now);
      const row = {
        id: connection.id,
        user_id: connection.userId,
        app_key: connection.appKey,
        oauth_client_id: connection.oauthClientId,
        credentials: seal(connection.id, connection.credentials),
        verified: codec.bool(false),
        screen_name: null,
        oauth_state_hash: null,
        oauth_state_expires_at: null,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('connections').values(row).execute();
      return toConnection(row);
    },

    async findById(id) {
      const row = await db
        .selectFrom('connections')
        .innerJoin('users', 'users.id', 'connections.user_id')
        .selectAll('connections')
        .select('users.deleted_at as owner_removed_at')
        .where('connections.id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return {
        ...toConnection(row),
        credentials: JSON.parse(secretBox.open(row.credentials, sealContext(row.id))) as Credentials,
        oauthState:
          row.oauth_state_hash && row.oauth_state_expires_at
            ? { hash: row.oauth_state_hash, expiresAt: codec.readTimestamp(row.oauth_state_expires_at) }
            : null,
        ownerRemoved: row.owner_removed_at !== null,
      };
    },

    async listByApp(appKey, { ownerId, verifiedOnly }) {
      let query = db.selectFrom('connections').selectAll().where('app_key', '=', appKey);
      if (ownerId) query = query.where('user_id', '=', ownerId);
      if (verifiedOnly) query = query.where('verified', '=', codec.bool(true));
      const rows = await query.orderBy('created_at', 'desc').orderBy('id').execute();
      return rows.map(toConnection);
    },

    async update(id, changes, now) {
      await db
        .updateTable('connections')
        .set({
          ...(changes.credentials !== undefined && { credentials: seal(id, changes.credentials) }),
          ...(changes.verified !== undefined && { verified: codec.bool(changes.verified) }),
          ...(changes.screenName !== undefined && { screen_name: changes.screenName }),
          ...(changes.oauthClientId !== undefined && { oauth_client_id: changes.oauthClientId }),
          ...(changes.oauthState !== undefined && {
            oauth_state_hash: changes.oauthState?.hash ?? null,
            oauth_state_expires_at: changes.oauthState ? codec.timestamp(changes.oauthState.expiresAt) : null,
          }),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', id)
        .execute();
    },

    async delete(id) {
      await db.deleteFrom('connections').where('id', '=', id).execute();
    },

    async countByApp(userId) {
      const rows = await db
        .selectFrom('connections')
        .select(['app_key', (eb) => eb.fn.countAll().as('count')])
        .where('user_id', '=', userId)
        .groupBy('app_key')
        .execute();
      return rows.map((r) => ({ appKey: r.app_key, count: codec.readInt(r.count as string | number) }));
    },
  };
};
