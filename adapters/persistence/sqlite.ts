import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.js';

export const openSqlite = (path: string): Kysely<Database> => {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
  // WAL with NORMAL survives a process crash; only a power loss may drop the newest commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(sqlite) });
};
