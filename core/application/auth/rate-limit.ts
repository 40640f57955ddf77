import type { RateLimiter } from '../../../ports/rate-limiter.js';
import { type DomainError, rateLimited } from '../../domain/errors.js';
import type { RateLimit } from '../../domain/rate-limits.js';

/** Counts one attempt under every key; refuses when any of them is over its budget. */
export const checkRateLimits = async (
  limiter: RateLimiter,
  rules: ReadonlyArray<readonly [key: string, rule: RateLimit]>,
): Promise<DomainError | null> => {
  let retryAfter = 0;
  for (const [key, rule] of rules) {
    const decision = await limiter.hit(key, rule);
    if (!decision.allowed) retryAfter = Math.max(retryAfter, decision.retryAfterSeconds);
  }
  return retryAfter > 0 ? rateLimited(retryAfter) : null;
};
