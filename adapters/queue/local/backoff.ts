/**
 * Exponential backoff with "equal jitter": the n-th retry waits between half and all of
 * `baseMs * 2^(n-1)` (capped at `maxMs`). The floor keeps a retry from coming straight back;
 * the random half spreads jobs that failed together (an outage) so they do not return together.
 */
export const backoffMs = (attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random) => {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
};
