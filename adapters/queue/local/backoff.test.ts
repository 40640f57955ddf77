import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.js';

describe('backoffMs', () => {
  it('doubles per attempt, between half and all of the step', () => {
    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(backoffMs(3, 1000, 60_000, () => 0)).toBe(2000);
    expect(backoffMs(3, 1000, 60_000, () => 1)).toBe(4000);
  });

  it('never waits longer than the cap', () => {
    expect(backoffMs(40, 1000, 60_000, () => 1)).toBe(60_000);
    expect(backoffMs(40, 1000, 60_000, () => 0)).toBe(30_000);
  });
});
