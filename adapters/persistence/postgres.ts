import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from '../../ports/logger.js';
import { withPreparedStatements } from './prepared-statements.js';
import type { Database } from './schema.js';
import type { StatementCounts } from './statement-counts.js';

export const openPostgres = (
  url: string,
  logger: Logger,
  poolSize: number,
  timeoutMs: number,
  counts: StatementCounts,
): Kysely<Database> => {
  // Without a time-out a query waits forever while the server is down or every connection is busy;
  // past it the query fails with DatabaseUnavailableError (HTTP 503).
  // Connections stay open once made (pg closes idle ones after 10 s by default): a new one costs a
  // server process, and its first statements there read the catalogs and plan anew, some 40-60 ms
  // on a busy two-core machine against 1 ms after, which every burst after a quiet spell paid.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, min: poolSize, connectionTimeoutMillis: timeoutMs });
  // An idle client's error (e.g. the server restarted) is emitted on the pool; unhandled, it
  // would kill the process. The pool drops that client and the next query gets a fresh one.
  pool.on('error', (error) => logger.error({ err: error.message }, 'postgres pool client failed'));
  // The pool listens for that only while a client is idle. A checked-out client whose connection
  // drops emits 'error' besides failing its query; without a listener of its own that event would
  // end the process. The query in flight fails on its own, and the pool drops the client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool, { counts }) }) });
};
