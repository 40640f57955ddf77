import { type Kysely, type Migration, sql } from 'kysely';
import { columnTypes } from './migrations/column-types.js';
import { migrations } from './migrations/index.js';

/** The ledger of applied migrations, one row each. */
export const MIGRATIONS_TABLE = 'conveyor_migrations';

/**
 * Brings the schema up to date: every pending migration, in list order, in one transaction, so a
 * failure leaves the schema as it was. Processes starting at once queue on a lock taken first:
 * the write lock on SQLite (transactions begin IMMEDIATE) and, on Postgres, an advisory lock keyed
 * by the current schema. Nothing here inspects other schemas, so neighbours sharing a Postgres
 * database (or being dropped meanwhile) do not matter. Answers the names of the migrations it applied.
 */
export const migrateToLatest = async (
  db: Kysely<any>,
  list: ReadonlyArray<readonly [name: string, migration: Migration]> = migrations,
): Promise<string[]> => {
  const t = columnTypes(db);
  return db.transaction().execute(async (trx) => {
    if (t.postgres)
      await sql`select pg_advisory_xact_lock(hashtext('conveyor:migrate:' || current_schema()))`.execute(trx);
    await trx.schema
      .createTable(MIGRATIONS_TABLE)
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', t.timestamp, (c) => c.notNull())
      .execute();
    const applied = new Set(
      (await trx.selectFrom(MIGRATIONS_TABLE).select('name').execute()).map((row) => row.name as string),
    );
    const known = new Set(list.map(([name]) => name));
    const unknown = [...applied].filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new Error(`The database has migrations this build does not know (${unknown.join(', ')}): it is newer.`);
    }
    const done: string[] = [];
    for (const [name, migration] of list) {
      if (applied.has(name)) continue;
      try {
        await migration.up(trx);
      } catch (error) {
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      await trx.insertInto(MIGRATIONS_TABLE).values({ name, applied_at: new Date().toISOString() }).execute();
      done.push(name);
    }
    return done;
  });
};
