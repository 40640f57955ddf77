import { describe, expect, it } from 'vitest';
import { afterMark, atOrBeforeMark, isCursor, markOf } from './cursor.js';

describe('mysql trigger cursor', () => {
  it('compares one column', () => {
    expect(afterMark(['id'], [5])).toEqual({ sql: '`id` > ?', params: [5] });
    expect(atOrBeforeMark(['id'], [5])).toEqual({ sql: '`id` <= ?', params: [5] });
  });

  it('compares a timestamp with a key that breaks ties (keyset order)', () => {
    expect(afterMark(['updated_at', 'id'], ['2024-01-01 00:00:00', 7])).toEqual({
      sql: '((`updated_at` > ?) OR (`updated_at` = ? AND `id` > ?))',
      params: ['2024-01-01 00:00:00', '2024-01-01 00:00:00', 7],
    });
    expect(atOrBeforeMark(['updated_at', 'id'], ['t', 7])).toEqual({
      sql: '((`updated_at` < ?) OR (`updated_at` = ? AND `id` <= ?))',
      params: ['t', 't', 7],
    });
  });

  it('quotes hostile column names', () => {
    expect(afterMark(['a` > 0 OR `b'], [1]).sql).toBe('`a`` > 0 OR ``b` > ?');
  });

  it('refuses a stored position that does not fit the columns', () => {
    expect(() => afterMark(['a', 'b'], [1])).toThrow(/does not fit/);
  });

  it('reads a row’s position whatever the case of the column name', () => {
    expect(markOf({ ID: 3, Updated: '2024-01-01' }, ['updated', 'id'])).toEqual(['2024-01-01', 3]);
    expect(() => markOf({ id: 1 }, ['nope'])).toThrow('The rows have no column "nope".');
    expect(() => markOf({ data: Buffer.from('x') }, ['data'])).toThrow(/numbers, text or dates/);
  });

  it('recognises a stored cursor', () => {
    expect(isCursor({ from: null, seen: [1] })).toBe(true);
    expect(isCursor({ from: null, seen: null })).toBe(true);
    expect(isCursor(undefined)).toBe(false);
    expect(isCursor({ seen: 3 })).toBe(false);
  });
});
