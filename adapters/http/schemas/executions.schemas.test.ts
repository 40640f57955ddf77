import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { executionListQuery } from './executions.schemas.js';

const startOf = (startDateTime: string) => v.safeParse(executionListQuery, { startDateTime });

describe('the execution list’s date filters', () => {
  it('take epoch milliseconds and ISO 8601 dates and date-times', () => {
    for (const [text, iso] of [
      ['1795341600000', '2026-11-22T10:00:00.000Z'],
      ['2026-11-25', '2026-11-25T00:00:00.000Z'],
      ['2026-11-25T10:00Z', '2026-11-25T10:00:00.000Z'],
      ['2026-11-25T10:00:00.123+01:00', '2026-11-25T09:00:00.123Z'],
    ]) {
      const parsed = startOf(text as string);
      if (!parsed.success) throw new Error(`${text} was refused`);
      expect(parsed.output.startDateTime?.toISOString(), text).toBe(iso);
    }
  });

  it('refuse what only a lenient date parser reads, such as years Postgres cannot read back (found by the fuzz suite)', () => {
    for (const text of [
      '1.5',
      'yesterday',
      'fuzz-deep:16780',
      '\u0001fuzz-deep:16780',
      '2026-13-45',
      '+016780-01-01',
    ]) {
      expect(startOf(text).success, text).toBe(false);
    }
  });
});
