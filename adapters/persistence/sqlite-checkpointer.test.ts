import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite.js';

describe('SQLite checkpoints in a worker thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conveyor-checkpoint-'));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('copies committed pages into the database file without the committing connection doing it', async () => {
    const path = join(dir, 'app.db');
    const db = openSqlite(path);
    await sql`create table t (id integer primary key, body text)`.execute(db);
    // About 2 MB: far below the main connection's own checkpoint threshold, so only the worker's
    // checkpoint moves it from the WAL into the database file.
    for (let i = 0; i < 20; i++) {
      await sql`insert into t (body) select ${'x'.repeat(1000)} from (select 1 from (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) a, (values (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) b)`.execute(
        db,
      );
    }
    expect(statSync(path).size).toBeLessThan(512 * 1024);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(1024 * 1024);

    await expect.poll(() => statSync(path).size, { timeout: 5000, interval: 100 }).toBeGreaterThan(1024 * 1024);
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
    expect(rows).toEqual([{ n: 2000 }]);

    await db.destroy();
    // The last connection closed cleanly: the WAL is folded back and removed.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});
