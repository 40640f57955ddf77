import type { RateLimit } from '../core/domain/rate-limits.js';

export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Seconds until the window resets; 0 when allowed. */
  readonly retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one attempt under `key` and says whether it is within `rule`. */
  hit(key: string, rule: RateLimit): Promise<RateLimitDecision>;
}
