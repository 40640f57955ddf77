import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff.js';

const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('retryDelayMs', () => {
  it('doubles the ceiling each attempt and caps it', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(policy, attempt, top))).toEqual([99, 199, 399, 799]);
    expect(retryDelayMs({ ...policy, maxAttempts: 10 }, 8, top)).toBe(999);
  });

  it('spreads retries over the whole window (full jitter)', () => {
    expect(retryDelayMs(policy, 3, () => 0)).toBe(0);
    expect(retryDelayMs(policy, 3, () => 0.5)).toBe(200);
  });

  it('gives up after the last attempt', () => {
    expect(retryDelayMs(policy, 5, () => 0.5)).toBeNull();
    expect(retryDelayMs(policy, 6, () => 0.5)).toBeNull();
  });

  it('waits at least as long as the server asked, within the cap', () => {
    expect(retryDelayMs(policy, 1, () => 0, 600)).toBe(600);
    expect(retryDelayMs(policy, 1, () => 0, 86_400_000)).toBe(1_000);
  });
});
