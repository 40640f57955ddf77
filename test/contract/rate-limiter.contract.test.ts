import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabaseRateLimiter } from '../../adapters/persistence/rate-limiter.js';
import type { RateLimit } from '../../core/domain/rate-limits.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { ManualClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { MINUTE, openFixture, type PersistenceFixture } from './persistence-fixture.js';

const RULE: RateLimit = { limit: 3, windowMs: MINUTE };
const ALLOWED = { allowed: true, retryAfterSeconds: 0 };

const hitTimes = async (limiter: RateLimiter, key: string, rule: RateLimit, times: number) => {
  const decisions = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.hit(key, rule));
  return decisions;
};

describe.each(DIALECTS)('database rate limiter contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let clock: ManualClock;
  let limiter: RateLimiter;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    clock = new ManualClock();
    limiter = createDatabaseRateLimiter(fx.handle, clock);
  });
  afterEach(() => fx.close());

  it('allows `limit` hits in a window, then refuses until the window resets', async () => {
    expect(await hitTimes(limiter, 'sign-in:ada', RULE, 3)).toEqual([ALLOWED, ALLOWED, ALLOWED]);
    const refused = await limiter.hit('sign-in:ada', RULE);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(RULE.windowMs / 1000);
    expect(refused.retryAfterSeconds).toBe(60);
  });

  it('counts down the retry delay as the window runs out, rounding up', async () => {
    await hitTimes(limiter, 'k', RULE, 3);
    clock.advance(20_000);
    expect(await limiter.hit('k', RULE)).toEqual({ allowed: false, retryAfterSeconds: 40 });
    clock.advance(39_500);
    expect(await limiter.hit('k', RULE)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('keeps the window fixed: hits late in the window do not extend it', async () => {
    await limiter.hit('k', RULE);
    clock.advance(50_000);
    await hitTimes(limiter, 'k', RULE, 2);
    expect((await limiter.hit('k', RULE)).retryAfterSeconds).toBe(10);
    clock.advance(10_000);
    expect(await limiter.hit('k', RULE)).toEqual(ALLOWED);
  });

  it('counts each key on its own', async () => {
    await hitTimes(limiter, 'sign-in:ada', RULE, 4);
    expect((await limiter.hit('sign-in:ada', RULE)).allowed).toBe(false);
    expect(await hitTimes(limiter, 'sign-in:bob', RULE, 3)).toEqual([ALLOWED, ALLOWED, ALLOWED]);
    expect((await limiter.hit('sign-in:bob', RULE)).allowed).toBe(false);
  });

  it('allows again once the window has passed, with a fresh budget', async () => {
    await hitTimes(limiter, 'k', RULE, 5);
    clock.advance(RULE.windowMs - 1);
    expect((await limiter.hit('k', RULE)).allowed).toBe(false);
    clock.advance(1);
    expect(await hitTimes(limiter, 'k', RULE, 3)).toEqual([ALLOWED, ALLOWED, ALLOWED]);
    expect((await limiter.hit('k', RULE)).allowed).toBe(false);
    clock.advance(10 * RULE.windowMs);
    expect(await limiter.hit('k', RULE)).toEqual(ALLOWED);
  });

  it('stores keys hashed, not as given', async () => {
    await limiter.hit('sign-in:ada@example.com', RULE);
    const rows = await fx.handle.db.selectFrom('rate_limit_hits').select('key').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key).not.toContain('ada');
    expect(rows[0]?.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shares one budget between two limiters on the same database', async () => {
    const other = createDatabaseRateLimiter(fx.handle, clock);
    await hitTimes(limiter, 'k', RULE, 2);
    expect(await other.hit('k', RULE)).toEqual(ALLOWED);
    expect((await other.hit('k', RULE)).allowed).toBe(false);
    expect((await limiter.hit('k', RULE)).allowed).toBe(false);
  });

  it('counts every one of many concurrent hits', async () => {
    const decisions = await Promise.all(Array.from({ length: 8 }, () => limiter.hit('k', RULE)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(RULE.limit);
  });

  it('gives back one attempt on refund, never below none', async () => {
    await hitTimes(limiter, 'k', RULE, 3);
    await limiter.refund('k');
    expect(await limiter.hit('k', RULE)).toEqual(ALLOWED);
    expect((await limiter.hit('k', RULE)).allowed).toBe(false);
    await limiter.refund('other');
    for (let i = 0; i < 5; i++) await limiter.refund('other');
    expect(await hitTimes(limiter, 'other', RULE, 3)).toEqual([ALLOWED, ALLOWED, ALLOWED]);
    expect((await limiter.hit('other', RULE)).allowed).toBe(false);
  });

  it('forgets a key on reset, leaving the others', async () => {
    await hitTimes(limiter, 'k', RULE, 4);
    await hitTimes(limiter, 'j', RULE, 4);
    await limiter.reset('k');
    expect(await hitTimes(limiter, 'k', RULE, 3)).toEqual([ALLOWED, ALLOWED, ALLOWED]);
    expect((await limiter.hit('j', RULE)).allowed).toBe(false);
  });

  it('keeps a longer window’s count when another limiter prunes with only shorter windows', async () => {
    // Another process (or this one after a restart) that has so far only seen a 15-minute rule
    // must not erase a count that an hourly rule still needs.
    const hourly: RateLimit = { limit: 2, windowMs: 60 * MINUTE };
    const quarterly: RateLimit = { limit: 10, windowMs: 15 * MINUTE };
    await hitTimes(limiter, 'forgot-password:ada', hourly, 2);
    expect((await limiter.hit('forgot-password:ada', hourly)).allowed).toBe(false);

    clock.advance(20 * MINUTE);
    const restarted = createDatabaseRateLimiter(fx.handle, clock);
    expect(await restarted.hit('sign-in:bob', quarterly)).toEqual(ALLOWED);

    expect(await restarted.hit('forgot-password:ada', hourly)).toEqual({ allowed: false, retryAfterSeconds: 40 * 60 });
  });
});
