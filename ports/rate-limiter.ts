import type { RateLimit } from '../core/domain/rate-limits.js';

export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Seconds until the window resets; 0 when allowed. */
  readonly retryAfterSeconds: number;
}

/**
 * Fixed-window attempt counters shared by every process of an instance. An attempt is counted
 * before it is tried, so that many tried at once cannot all slip under the budget; one that turns
 * out not to count (a correct password) is given back afterwards.
 */
export interface RateLimiter {
  /** Counts one attempt under `key` and says whether it is within `rule`. */
  hit(key: string, rule: RateLimit): Promise<RateLimitDecision>;
  /** Gives back one attempt counted under `key` in its current window. */
  refund(key: string): Promise<void>;
  /** Forgets every attempt counted under `key`. */
  reset(key: string): Promise<void>;
}
