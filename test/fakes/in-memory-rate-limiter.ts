import type { RateLimit } from '../../core/domain/rate-limits.js';
import type { Clock } from '../../ports/clock.js';
import type { RateLimitDecision, RateLimiter } from '../../ports/rate-limiter.js';

/** Fixed-window counters in a Map, with the same semantics as the database limiter. */
export class InMemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { startedMs: number; hits: number }>();
  /** Every key hit, in order, so a test can see what was counted. */
  readonly hits: string[] = [];

  constructor(private readonly clock: Clock) {}

  async hit(key: string, rule: RateLimit): Promise<RateLimitDecision> {
    this.hits.push(key);
    const nowMs = this.clock.now().getTime();
    const current = this.#windows.get(key);
    const window =
      current && current.startedMs > nowMs - rule.windowMs
        ? { startedMs: current.startedMs, hits: current.hits + 1 }
        : { startedMs: nowMs, hits: 1 };
    this.#windows.set(key, window);
    if (window.hits <= rule.limit) return { allowed: true, retryAfterSeconds: 0 };
    const resetAtMs = window.startedMs + rule.windowMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)) };
  }

  async refund(key: string): Promise<void> {
    const current = this.#windows.get(key);
    if (current && current.hits > 0) this.#windows.set(key, { ...current, hits: current.hits - 1 });
  }

  async reset(key: string): Promise<void> {
    this.#windows.delete(key);
  }

  /** How many attempts the current window of `key` holds. */
  count(key: string): number {
    return this.#windows.get(key)?.hits ?? 0;
  }
}
