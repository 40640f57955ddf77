import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Logger } from '../../ports/logger.js';
import { loadAddon, packagedFiles } from '../packaged-files.js';
import type { Database } from './schema.js';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { GroupCommitSqliteDialect, GroupCommitSqliteDriver } from './sqlite-group-commit.js';
import { newStatementCounts, type StatementCounts } from './statement-counts.js';

/** WAL pages past which the committing connection checkpoints itself: the backstop of the worker's checkpoints. */
const BACKSTOP_CHECKPOINT_PAGES = 16_000;

export type SqliteSynchronous = 'normal' | 'full';

export const openSqlite = (
  path: string,
  logger?: Logger,
  {
    synchronous = 'normal',
    counts = newStatementCounts(),
  }: { synchronous?: SqliteSynchronous; counts?: StatementCounts } = {},
): Kysely<Database> => {
  const onDisk = path !== ':memory:' && path !== '';
  if (onDisk) mkdirSync(dirname(path), { recursive: true });
  const addon = packagedFiles()?.sqliteAddon;
  // The addon itself, not its path: a packaged program's require could not load the file. (The
  // types know only a path; better-sqlite3 takes either.)
  const sqlite = new BetterSqlite3(path, addon ? { nativeBinding: loadAddon(addon) as string } : {});
  if (onDisk) sqlite.pragma('journal_mode = WAL');
  // WAL with NORMAL survives a process crash; only a power loss or an OS crash may drop the newest
  // commits. FULL syncs every commit: those survive too, at the cost of an fsync per commit.
  sqlite.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  if (!onDisk)
    return new Kysely<Database>({
      dialect: new GroupCommitSqliteDialect(new GroupCommitSqliteDriver(sqlite, undefined, undefined, counts)),
    });
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  const driver = new GroupCommitSqliteDriver(sqlite, undefined, () => checkpointer.close(), counts);
  const checkpointer = startCheckpointer(path, {
    holdWrites: () => driver.holdWrites(),
    onFailure: (reason) => logger?.warn({ reason }, 'SQLite checkpoint failed; the next one tries again'),
  });
  return new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(driver) });
};
