import { describe, expect, it } from 'vitest';
import { InMemoryRateLimiter } from '../../../test/fakes/in-memory-rate-limiter.js';
import { ManualClock } from '../../../test/support/clock.js';
import type { RateLimit } from '../../domain/rate-limits.js';
import { checkRateLimits } from './rate-limit.js';

const ONE_PER_MINUTE: RateLimit = { limit: 1, windowMs: 60_000 };
const ONE_PER_QUARTER_HOUR: RateLimit = { limit: 1, windowMs: 15 * 60_000 };
const GENEROUS: RateLimit = { limit: 100, windowMs: 60_000 };

const setUp = () => {
  const clock = new ManualClock();
  return { clock, limiter: new InMemoryRateLimiter(clock) };
};

describe('checkRateLimits', () => {
  it('returns null when every key is within its budget', async () => {
    const { limiter } = setUp();

    const result = await checkRateLimits(limiter, [
      ['account:a@b.c', GENEROUS],
      ['address:10.0.0.1', GENEROUS],
    ]);

    expect(result).toBeNull();
    expect(limiter.hits).toEqual(['account:a@b.c', 'address:10.0.0.1']);
  });

  it('returns null for an empty list of rules', async () => {
    const { limiter } = setUp();
    expect(await checkRateLimits(limiter, [])).toBeNull();
  });

  it('counts every key even when the first one refuses', async () => {
    const { limiter } = setUp();
    await limiter.hit('account:a@b.c', ONE_PER_MINUTE);

    const result = await checkRateLimits(limiter, [
      ['account:a@b.c', ONE_PER_MINUTE],
      ['address:10.0.0.1', GENEROUS],
      ['global', GENEROUS],
    ]);

    expect(result).toMatchObject({ code: 'auth.rate_limited' });
    expect(limiter.count('account:a@b.c')).toBe(2);
    expect(limiter.count('address:10.0.0.1')).toBe(1);
    expect(limiter.count('global')).toBe(1);
  });

  it('refuses when only a later key is over its budget', async () => {
    const { limiter } = setUp();
    await limiter.hit('address:10.0.0.1', ONE_PER_MINUTE);

    const result = await checkRateLimits(limiter, [
      ['account:a@b.c', GENEROUS],
      ['address:10.0.0.1', ONE_PER_MINUTE],
    ]);

    expect(result).toEqual({ code: 'auth.rate_limited', retryAfterSeconds: 60 });
  });

  it('reports the largest retryAfterSeconds of the refusing keys', async () => {
    const { clock, limiter } = setUp();
    await limiter.hit('short', ONE_PER_MINUTE);
    await limiter.hit('long', ONE_PER_QUARTER_HOUR);
    clock.advance(30_000);

    const rules = [
      ['short', ONE_PER_MINUTE],
      ['long', ONE_PER_QUARTER_HOUR],
      ['fresh', GENEROUS],
    ] as const;
    const result = await checkRateLimits(limiter, rules);

    // short resets in 30 s, long in 15 min - 30 s = 870 s.
    expect(result).toEqual({ code: 'auth.rate_limited', retryAfterSeconds: 870 });

    const reversed = await checkRateLimits(limiter, [...rules].reverse());
    expect(reversed).toEqual({ code: 'auth.rate_limited', retryAfterSeconds: 870 });
  });

  it('allows again once the window has passed', async () => {
    const { clock, limiter } = setUp();
    await limiter.hit('account:a@b.c', ONE_PER_MINUTE);
    expect(await checkRateLimits(limiter, [['account:a@b.c', ONE_PER_MINUTE]])).not.toBeNull();

    clock.advance(60_000);

    expect(await checkRateLimits(limiter, [['account:a@b.c', ONE_PER_MINUTE]])).toBeNull();
  });
});
