import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite.js';

describe('openSqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conveyor-sqlite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const synchronousOf = async (options?: Parameters<typeof openSqlite>[2]) => {
    const db = openSqlite(join(dir, `${Math.random()}.db`), undefined, options);
    try {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      return rows[0]?.synchronous;
    } finally {
      await db.destroy();
    }
  };

  it('syncs at checkpoints by default (1 = NORMAL), and every commit when asked (2 = FULL)', async () => {
    expect(await synchronousOf()).toBe(1);
    expect(await synchronousOf({ synchronous: 'full' })).toBe(2);
  });
});
