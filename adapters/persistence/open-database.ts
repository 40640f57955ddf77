import type { Kysely } from 'kysely';
import type { Logger } from '../../ports/logger.js';
import { type Codec, postgresCodec, sqliteCodec } from './codec.js';
import { openPostgres } from './postgres.js';
import type { Database } from './schema.js';
import { openSqlite, type SqliteSynchronous } from './sqlite.js';
import { newStatementCounts, type StatementCounts } from './statement-counts.js';

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly codec: Codec;
  /** Statements and commits sent through this handle since it opened. */
  readonly counts: Readonly<StatementCounts>;
  close(): Promise<void>;
}

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

/**
 * A `postgres://` URL, or else a SQLite file path (or `:memory:`). A URL of any other scheme
 * (`mysql://`, `sqlite://`, `file://`) is neither: taken for a path, it would make folders named
 * after the URL.
 */
export const isDatabaseUrl = (url: string): boolean => isPostgresUrl(url) || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url);

/** A `postgres://` URL opens a pool; a path opens that SQLite file. */
export const openDatabase = (
  url: string,
  logger: Logger,
  options: { poolSize?: number; poolTimeoutMs?: number; sqliteSynchronous?: SqliteSynchronous } = {},
): DatabaseHandle => {
  if (!isDatabaseUrl(url))
    throw new Error('Not a database Conveyor opens: give a postgres:// URL or a SQLite file path.');
  const counts = newStatementCounts();
  const db = isPostgresUrl(url)
    ? openPostgres(url, logger, options.poolSize ?? 10, options.poolTimeoutMs ?? 5000, counts)
    : openSqlite(url, logger, { synchronous: options.sqliteSynchronous ?? 'normal', counts });
  return { db, codec: isPostgresUrl(url) ? postgresCodec : sqliteCodec, counts, close: () => db.destroy() };
};
