export interface BackoffPolicy {
  /** Attempts in all, the first one included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_STEP_BACKOFF: BackoffPolicy = { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 5 * 60_000 };

/**
 * How long to wait before attempt `attempt + 1`, or null when `attempt` was the last. Exponential
 * with full jitter, so that many runs failing against one service do not retry in lockstep; a
 * server's `Retry-After` is honoured as a floor (capped, so a hostile value cannot park a run).
 * `random` is in [0, 1): injected so that the core stays deterministic under test.
 */
export const retryDelayMs = (
  policy: BackoffPolicy,
  attempt: number,
  random: () => number,
  retryAfterMs?: number,
): number | null => {
  if (attempt >= policy.maxAttempts) return null;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  const floor = Math.min(retryAfterMs ?? 0, policy.maxDelayMs);
  return Math.max(jittered, floor);
};
