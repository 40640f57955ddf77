import type { Selectable } from 'kysely';
import type { OAuthClient } from '../../../core/domain/app-config.js';
import type { OAuthClientRepository } from '../../../ports/repositories.js';
import type { OAuthClientsTable } from '../schema.js';
import type { Executor } from './executor.js';

const sealContext = (id: string) => `oauth-client:${id}`;

export const createOAuthClientRepository = ({ db, codec, secretBox }: Executor): OAuthClientRepository => {
  const toClient = (row: Selectable<OAuthClientsTable>): OAuthClient => ({
    id: row.id,
    appKey: row.app_key,
    name: row.name,
    active: codec.readBool(row.active),
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });

  return {
    async listByApp(appKey, { activeOnly }) {
      let query = db.selectFrom('oauth_clients').selectAll().where('app_key', '=', appKey);
      if (activeOnly) query = query.where('active', '=', codec.bool(true));
      return (await query.orderBy('name').execute()).map(toClient);
    },

    async findById(id) {
      const row = await db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      return { ...toClient(row), settings: JSON.parse(secretBox.open(row.settings, sealContext(id))) };
    },

    async insert(client) {
      const now = codec.timestamp(client.now);
      const row = {
        id: client.id,
        app_key: client.appKey,
        name: client.name,
        active: codec.bool(client.active),
        settings: secretBox.seal(JSON.stringify(client.settings), sealContext(client.id)),
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('oauth_clients').values(row).execute();
      return toClient(row);
    },

    async update(id, changes, now) {
      await db
        .updateTable('oauth_clients')
        .set({
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.active !== undefined && { active: codec.bool(changes.active) }),
          ...(changes.settings !== undefined && {
            settings: secretBox.seal(JSON.stringify(changes.settings), sealContext(id)),
          }),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', id)
        .execute();
    },
  };
};
