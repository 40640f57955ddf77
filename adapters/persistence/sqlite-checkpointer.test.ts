import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite.js';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { GroupCommitSqliteDialect, GroupCommitSqliteDriver } from './sqlite-group-commit.js';

describe('SQLite checkpoints in a worker thread', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'conveyor-checkpoint-'));
  });
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

  it('starts the WAL over after each hold of the writes, under a stream of commits', async () => {
    const path = join(dir, 'stream.db');
    const sqlite = new BetterSqlite3(path);
    sqlite.pragma('journal_mode = WAL');
    // No checkpoint of the writer's own: only the worker's can copy the WAL and let it start over.
    sqlite.pragma('wal_autocheckpoint = 0');
    // The WAL header's first salt changes each time the WAL starts over.
    const salt = () => readFileSync(`${path}-wal`).readUInt32BE(16);
    const startedOver: Promise<boolean>[] = [];
    const driver = new GroupCommitSqliteDriver(sqlite, undefined, () => checkpointer.close());
    const checkpointer = startCheckpointer(path, {
      intervalMs: 20,
      restartFrames: 200,
      holdWrites: async () => {
        const release = await driver.holdWrites();
        const before = salt();
        return () => {
          release();
          // The first write after the hold is where the WAL starts over.
          startedOver.push(
            db
              .insertInto('t')
              .values({ body: 'after a hold' })
              .execute()
              .then(() => salt() !== before),
          );
        };
      },
    });
    const db = new Kysely<{ t: { body: string } }>({ dialect: new GroupCommitSqliteDialect(driver) });
    await sql`create table t (body text)`.execute(db);

    // Writers each committing as soon as their last commit is durable.
    const row = 'x'.repeat(3000);
    let written = 0;
    const until = Date.now() + 1000;
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while (Date.now() < until) {
          await db.insertInto('t').values({ body: row }).execute();
          written++;
        }
      }),
    );
    const restarts = await Promise.all(startedOver);
    const { rows } = await sql<{ n: number }>`select count(*) as n from t where body = ${row}`.execute(db);
    await db.destroy();

    expect(rows).toEqual([{ n: written }]);
    expect(restarts.length).toBeGreaterThan(2);
    expect(restarts.every(Boolean)).toBe(true);
  });
});
