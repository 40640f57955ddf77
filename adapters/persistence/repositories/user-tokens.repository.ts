import type { UserTokenRepository } from '../../../ports/repositories.js';
import type { Executor } from './executor.js';

export const createUserTokenRepository = ({ db, codec }: Executor): UserTokenRepository => {
  const usable = (kind: string, tokenHash: string, now: Date) =>
    db
      .selectFrom('user_tokens')
      .select('user_id')
      .where('kind', '=', kind)
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', codec.timestamp(now));

  return {
    async insert(token) {
      await db
        .insertInto('user_tokens')
        .values({
          id: token.id,
          user_id: token.userId,
          kind: token.kind,
          token_hash: token.tokenHash,
          expires_at: codec.timestamp(token.expiresAt),
          used_at: null,
          created_at: codec.timestamp(token.now),
        })
        .execute();
    },

    async findUsableUserId(kind, tokenHash, now) {
      return (await usable(kind, tokenHash, now).executeTakeFirst())?.user_id ?? null;
    },

    async consume(kind, tokenHash, now) {
      // The conditional update is the atomic step: of two racing redemptions one updates a row.
      const row = await db
        .updateTable('user_tokens')
        .set({ used_at: codec.timestamp(now) })
        .where('kind', '=', kind)
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', codec.timestamp(now))
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id ?? null;
    },

    async discardOutstanding(userId, kind, now) {
      await db
        .updateTable('user_tokens')
        .set({ used_at: codec.timestamp(now) })
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .where('used_at', 'is', null)
        .execute();
    },
  };
};
