import { describe, expect, it } from 'vitest';
import { accepted } from './settle.js';

describe('accepted', () => {
  it('is true when emit resolves and false when it rejects', async () => {
    expect(await accepted(Promise.resolve(), new AbortController().signal)).toBe(true);
    expect(await accepted(Promise.reject(new Error('database away')), new AbortController().signal)).toBe(false);
  });

  it('is false as soon as the subscription closes, even if emit never settles', async () => {
    const abort = new AbortController();
    const waiting = accepted(new Promise<void>(() => {}), abort.signal);
    abort.abort();
    expect(await waiting).toBe(false);
    expect(await accepted(Promise.reject(new Error('closing')), abort.signal)).toBe(false);
  });
});
