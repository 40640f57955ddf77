import type { Selectable } from 'kysely';
import type { ApiToken } from '../../../core/domain/api-token.js';
import type { ApiTokenRepository } from '../../../ports/repositories.js';
import type { ApiTokensTable } from '../schema.js';
import type { Executor } from './executor.js';

export const createApiTokenRepository = ({ db, codec }: Executor): ApiTokenRepository => {
  const toApiToken = (row: Selectable<ApiTokensTable>): ApiToken => ({
    id: row.id,
    userId: row.user_id,
    maskedToken: row.masked_token,
    createdAt: codec.readTimestamp(row.created_at),
  });

  return {
    async insert(token) {
      const row = {
        id: token.id,
        user_id: token.userId,
        token_hash: token.tokenHash,
        masked_token: token.maskedToken,
        created_at: codec.timestamp(token.now),
      };
      await db.insertInto('api_tokens').values(row).execute();
      return toApiToken(row);
    },

    async list() {
      const rows = await db.selectFrom('api_tokens').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
      return rows.map(toApiToken);
    },

    async findByHash(tokenHash) {
      const row = await db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return row ? toApiToken(row) : null;
    },

    async delete(id) {
      const result = await db.deleteFrom('api_tokens').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async deleteAllOfUser(userId) {
      await db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
    },
  };
};
