import { sha256 } from '@oslojs/crypto/sha2';
import { encodeHexLowerCase } from '@oslojs/encoding';
import { sql } from 'kysely';
import type { Clock } from '../../ports/clock.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { DatabaseHandle } from './open-database.js';

const PRUNE_EVERY_MS = 10 * 60_000;
const encoder = new TextEncoder();

/**
 * Fixed-window counters in the application database, so every process of an instance shares one
 * budget. Each row knows when its own window ends, so pruning never needs to know the rules.
 * Keys are stored hashed: they contain e-mail and client addresses.
 */
export const createDatabaseRateLimiter = ({ db, codec }: DatabaseHandle, clock: Clock): RateLimiter => {
  let lastPruneMs = 0;
  const hashed = (key: string) => encodeHexLowerCase(sha256(encoder.encode(key)));

  return {
    async hit(key, rule) {
      const nowMs = clock.now().getTime();
      const endsMs = nowMs + rule.windowMs;
      const row = await db
        .insertInto('rate_limit_hits')
        .values({ key: hashed(key), window_ends_ms: endsMs, hits: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql`case when rate_limit_hits.window_ends_ms <= ${nowMs} then 1 else rate_limit_hits.hits + 1 end`,
            window_ends_ms: sql`case when rate_limit_hits.window_ends_ms <= ${nowMs} then ${endsMs} else rate_limit_hits.window_ends_ms end`,
          }),
        )
        .returning(['hits', 'window_ends_ms'])
        .executeTakeFirstOrThrow();
      if (nowMs - lastPruneMs > PRUNE_EVERY_MS) {
        lastPruneMs = nowMs;
        await db.deleteFrom('rate_limit_hits').where('window_ends_ms', '<=', nowMs).execute();
      }
      if (row.hits <= rule.limit) return { allowed: true, retryAfterSeconds: 0 };
      const leftMs = codec.readInt(row.window_ends_ms) - nowMs;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) };
    },

    async refund(key) {
      await db
        .updateTable('rate_limit_hits')
        .set({ hits: sql`hits - 1` })
        .where('key', '=', hashed(key))
        .where('hits', '>', 0)
        .where('window_ends_ms', '>', clock.now().getTime())
        .execute();
    },

    async reset(key) {
      await db.deleteFrom('rate_limit_hits').where('key', '=', hashed(key)).execute();
    },
  };
};
