import { describe, expect, it } from 'vitest';
import { createKeyedLock } from './keyed-lock.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('keyed lock', () => {
  it('runs work under one key one at a time, in order, and work under other keys meanwhile', async () => {
    const lock = createKeyedLock();
    const events: string[] = [];
    const job = (key: string, name: string) =>
      lock(key, async () => {
        events.push(`${name} in`);
        await tick();
        events.push(`${name} out`);
        return name;
      });
    const results = await Promise.all([job('a', 'a1'), job('a', 'a2'), job('b', 'b1'), job('a', 'a3')]);
    expect(results).toEqual(['a1', 'a2', 'b1', 'a3']);
    const a = events.filter((e) => e.startsWith('a'));
    expect(a).toEqual(['a1 in', 'a1 out', 'a2 in', 'a2 out', 'a3 in', 'a3 out']);
    // b1 did not wait for the a's.
    expect(events.indexOf('b1 in')).toBeLessThan(events.indexOf('a1 out'));
  });

  it('lets the next one in when work throws', async () => {
    const lock = createKeyedLock();
    const failed = lock('k', async () => {
      throw new Error('boom');
    });
    const next = lock('k', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('next');
  });
});
