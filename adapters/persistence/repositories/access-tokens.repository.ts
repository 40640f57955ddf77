import type { AccessTokenRepository } from '../../../ports/repositories.js';
import type { Executor } from './executor.js';

export const createAccessTokenRepository = ({ db, codec }: Executor): AccessTokenRepository => ({
  async insert(token) {
    await db
      .insertInto('access_tokens')
      .values({
        id: token.id,
        user_id: token.userId,
        token_hash: token.tokenHash,
        expires_at: codec.timestamp(token.expiresAt),
        revoked_at: null,
        created_at: codec.timestamp(token.now),
      })
      .execute();
  },

  async findUsable(tokenHash, now) {
    const row = await db
      .selectFrom('access_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', codec.timestamp(now))
      .executeTakeFirst();
    return row
      ? {
          id: row.id,
          userId: row.user_id,
          expiresAt: codec.readTimestamp(row.expires_at),
          revokedAt: null,
          createdAt: codec.readTimestamp(row.created_at),
        }
      : null;
  },

  async revokeOwn(userId, tokenHash, now) {
    const result = await db
      .updateTable('access_tokens')
      .set({ revoked_at: codec.timestamp(now) })
      .where('user_id', '=', userId)
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  async revokeAllOfUser(userId, now, exceptTokenId) {
    let query = db
      .updateTable('access_tokens')
      .set({ revoked_at: codec.timestamp(now) })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptTokenId) query = query.where('id', '!=', exceptTokenId);
    await query.execute();
  },
});
