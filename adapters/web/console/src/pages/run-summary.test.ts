import { describe, expect, it } from 'vitest';
import { formatDuration, payloadOf, previewOf } from './run-summary';

describe('a run in the executions list', () => {
  it('says how long it took, or has taken so far', () => {
    expect(formatDuration(1000, 1250, 0)).toBe('250 ms');
    expect(formatDuration(0, 2345, 0)).toBe('2.3 s');
    expect(formatDuration(0, 42_400, 0)).toBe('42 s');
    expect(formatDuration(0, 125_000, 0)).toBe('2 min 5 s');
    expect(formatDuration(0, 3 * 3600_000 + 60_000, 0)).toBe('3 h 1 min');
    expect(formatDuration(0, 50 * 3600_000, 0)).toBe('2 d 2 h');
    expect(formatDuration(10_000, null, 13_000)).toBe('3.0 s');
  });

  it('previews its trigger data as one line, shortened', () => {
    expect(previewOf({ body: { name: 'Ada' } })).toBe('{"body":{"name":"Ada"}}');
    const long = previewOf({ text: 'x'.repeat(200) }, 20);
    expect(long).toHaveLength(20);
    expect(long.endsWith('…')).toBe(true);
    expect(previewOf(undefined)).toBe('');
    expect(previewOf(null)).toBe('null');
  });

  it('takes a request’s body as its payload, and any other output whole', () => {
    expect(payloadOf({ method: 'POST', headers: { a: '1' }, query: {}, body: { name: 'Ada' } })).toEqual({
      name: 'Ada',
    });
    expect(payloadOf({ body: 'only a field called body' })).toEqual({ body: 'only a field called body' });
    expect(payloadOf([1, 2])).toEqual([1, 2]);
    expect(payloadOf('text')).toBe('text');
  });
});
