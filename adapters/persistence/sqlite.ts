import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import type { Database } from './schema.js';

/**
 * SQLite begins transactions as DEFERRED, which lets two writers both start reading and then fail
 * to upgrade their locks. IMMEDIATE takes the write lock up front, so a second process waits on
 * the busy timeout instead of failing mid-transaction.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; compiling the SQL was a tenth of the engine's CPU time. The
 * application's queries are a few hundred shapes, so their statements are kept and reused (the
 * oldest dropped past the limit). better-sqlite3 runs a statement to completion synchronously, so
 * one statement is never in use twice at once.
 */
const withStatementCache = (sqlite: BetterSqlite3.Database): SqliteDatabase => {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
};

export const openSqlite = (path: string): Kysely<Database> => {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
  // WAL with NORMAL survives a process crash; only a power loss may drop the newest commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
};
