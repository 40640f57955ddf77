import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { orderedId } from './ordered-ids.js';

describe('ordered ids', () => {
  it('are valid UUIDv7s, all different, each greater than the one before (many per millisecond)', () => {
    const ids = Array.from({ length: 20_000 }, () => orderedId());
    expect(ids.every((id) => validate(id) && version(id) === 7)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] as string))).toBe(true);
  });

  it('carry the time they were made', () => {
    const before = Date.now();
    const id = orderedId();
    const ms = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 1);
  });
});
