import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommitSqliteDialect, GroupCommitSqliteDriver } from './sqlite-group-commit.js';

interface Tables {
  t: { id: string };
}

describe('SQLite group commit', () => {
  let dir: string;
  let sqlite: BetterSqlite3.Database;
  let driver: GroupCommitSqliteDriver;
  let db: Kysely<Tables>;
  /** Another connection to the same file: what a second process (or a crash) would see. */
  let observer: BetterSqlite3.Database;
  let commits: number;

  const committedIds = () =>
    (observer.prepare('select id from t order by id').all() as { id: string }[]).map((row) => row.id);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conveyor-group-commit-'));
    sqlite = new BetterSqlite3(join(dir, 'db.sqlite'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    commits = 0;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((source: string) => {
      const statement = prepare(source);
      if (source !== 'commit') return statement;
      const run = statement.run.bind(statement);
      return Object.assign(statement, {
        run: () => {
          commits++;
          return run();
        },
      });
    }) as typeof sqlite.prepare;
    driver = new GroupCommitSqliteDriver(sqlite);
    db = new Kysely<Tables>({ dialect: new GroupCommitSqliteDialect(driver) });
    await sql`create table t (id text primary key)`.execute(db);
    observer = new BetterSqlite3(join(dir, 'db.sqlite'), { readonly: true });
    commits = 0;
  });

  afterEach(async () => {
    observer.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits concurrent writes and transactions together, each resolving only once committed', async () => {
    const seenWhenResolved: string[][] = [];
    const writes = Array.from({ length: 20 }, (_, i) =>
      (i % 2 === 0
        ? db
            .insertInto('t')
            .values({ id: `w${i}` })
            .execute()
        : db.transaction().execute(async (trx) => {
            await trx
              .insertInto('t')
              .values({ id: `u${i}a` })
              .execute();
            await trx
              .insertInto('t')
              .values({ id: `u${i}b` })
              .execute();
          })
      ).then(() => void seenWhenResolved.push(committedIds())),
    );
    await Promise.all(writes);
    expect(committedIds()).toHaveLength(30);
    // Every write was visible to another connection by the time its promise resolved.
    expect(seenWhenResolved.every((ids) => ids.length === 30)).toBe(true);
    expect(commits).toBeLessThanOrEqual(2);
    // What the metrics read: the create table and the 30 inserts, its commit and the batches'.
    expect(driver.counts).toEqual({ statements: 31, commits: commits + 1 });
  });

  it('rolls back only the transaction that failed, not the others in its batch', async () => {
    await db.insertInto('t').values({ id: 'taken' }).execute();
    const results = await Promise.allSettled([
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 'before' }).execute();
      }),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 'lost' }).execute();
        await trx.insertInto('t').values({ id: 'taken' }).execute();
      }),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 'refused' }).execute();
        throw new Error('the work changed its mind');
      }),
      db.insertInto('t').values({ id: 'taken' }).execute(),
      db.insertInto('t').values({ id: 'after' }).execute(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled']);
    expect(committedIds()).toEqual(['after', 'before', 'taken']);
  });

  it('ends a batch whose only transaction rolled back, releasing the write lock for other processes', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 'x' }).execute();
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const other = new BetterSqlite3(join(dir, 'db.sqlite'));
    other.pragma('busy_timeout = 0');
    try {
      expect(() => other.prepare("insert into t (id) values ('other')").run()).not.toThrow();
    } finally {
      other.close();
    }
  });

  it('reads see the process own writes at once', async () => {
    const write = db.insertInto('t').values({ id: 'mine' }).execute();
    const read = db.selectFrom('t').select('id').execute();
    await write;
    expect(await read).toEqual([{ id: 'mine' }]);
  });

  it('rejects every write of a batch that SQLite rolled back whole', async () => {
    // A failed COMMIT (here: a deferred foreign key still broken) loses the whole batch.
    await sql`create table parent (id text primary key)`.execute(db);
    await sql`create table child (id text primary key, parent_id text references parent(id) deferrable initially deferred)`.execute(
      db,
    );
    sqlite.pragma('foreign_keys = ON');
    const results = await Promise.allSettled([
      db.insertInto('t').values({ id: 'innocent' }).execute(),
      sql`insert into child (id, parent_id) values ('c', 'missing')`.execute(db),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(committedIds()).toEqual([]);
    await db.insertInto('t').values({ id: 'later' }).execute();
    expect(committedIds()).toEqual(['later']);
  });

  it('holds writes with the open batch committed and no new one open, until let go', async () => {
    const before = db.insertInto('t').values({ id: 'before' }).execute();
    const release = await driver.holdWrites();
    // The batch holding the first write is committed: another process could write now.
    expect(committedIds()).toEqual(['before']);
    expect(sqlite.inTransaction).toBe(false);
    let during = false;
    const held = db
      .insertInto('t')
      .values({ id: 'during' })
      .execute()
      .then(() => {
        during = true;
      });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(during).toBe(false);
    expect(sqlite.inTransaction).toBe(false);
    release();
    release();
    await Promise.all([before, held]);
    expect(committedIds()).toEqual(['before', 'during']);
  });
});
