import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPreparedStatements } from '../../adapters/persistence/prepared-statements.js';
import { newStatementCounts } from '../../adapters/persistence/statement-counts.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.js';

describe.runIf(DIALECTS.includes('postgres'))('Kysely statements on Postgres as named prepared statements', () => {
  let testDb: TestDatabase;
  let db: Kysely<Record<string, never>>;
  const counts = newStatementCounts();
  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    // One connection, so that every statement below meets the same server session.
    const pool = new pg.Pool({ connectionString: testDb.url, max: 1 });
    db = new Kysely({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool, { maxNamed: 3, counts }) }) });
  });
  afterAll(async () => {
    await db.destroy();
    await testDb.drop();
  });

  const prepared = async () =>
    (
      await sql<{ statement: string }>`select statement from pg_prepared_statements order by prepare_time`.execute(db)
    ).rows.map((row) => row.statement);

  it('prepares each statement once per connection and runs it again with new values', async () => {
    for (const n of [1, 2, 3]) {
      const { rows } = await sql<{ n: number }>`select ${n}::int + 1 as n`.execute(db);
      expect(rows).toEqual([{ n: n + 1 }]);
    }
    const statements = await prepared();
    expect(statements.filter((s) => s.includes('+ 1 as n'))).toHaveLength(1);
  });

  it('names only a bounded number of distinct statements; the rest still run, unnamed', async () => {
    for (const k of [10, 11, 12, 13]) {
      const { rows } = await sql<{ k: number }>`select ${sql.raw(String(k))} as k`.execute(db);
      expect(rows).toEqual([{ k }]);
    }
    // Named so far: the statement of the first test, the catalog query, and one of these.
    const named = (await prepared()).filter((s) => / as k$/.test(s));
    expect(named).toEqual(['select 10 as k']);
  });

  it('counts each statement it sends, and the commits among them', async () => {
    const before = { ...counts };
    await db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await sql`select 2`.execute(trx);
    });
    await sql`select 3`.execute(db);
    // begin, two selects, commit; then one select on its own.
    expect(counts).toEqual({ statements: before.statements + 5, commits: before.commits + 1 });
  });
});
