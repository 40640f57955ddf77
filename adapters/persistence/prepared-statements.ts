import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { DatabaseUnavailableError } from '../../ports/database-unavailable.js';
import { UnstorableTextError } from '../../ports/unstorable-text.js';
import { newStatementCounts, type StatementCounts } from './statement-counts.js';

/**
 * Failures to get a connection that pass: the pool's wait ran out, the server is away, starting,
 * full (53300) or not taking connections to this database for now (55000, e.g. maintenance).
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P03', '53300', '55000']);

/**
 * Failures of a query on a connection the server took away: shut down by an administrator or a
 * restart (57P01), a crash of another backend (57P02), or a link that broke. They pass like the
 * failures above (503 rather than 500); other errors (constraints, syntax) are thrown as they are.
 */
const CUT_OFF_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNRESET', 'EPIPE']);
/**
 * The server's disk is full (53100 disk_full, "could not extend file"): writes fail until space is
 * freed, then work again. Also 503 rather than 500, so that senders retry.
 */
const DISK_FULL_CODES = new Set(['53100']);
const CUT_OFF_MESSAGE = /^Connection terminated|not queryable/;

const passingFailure = (error: unknown): unknown => {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const gone =
    (typeof code === 'string' && (CUT_OFF_CODES.has(code) || DISK_FULL_CODES.has(code))) ||
    (typeof message === 'string' && CUT_OFF_MESSAGE.test(message));
  return gone ? new DatabaseUnavailableError(String(message), { cause: error }) : error;
};

const acquire = async (pool: pg.Pool): Promise<pg.PoolClient> => {
  try {
    return await pool.connect();
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    const timedOut = typeof message === 'string' && message.includes('timeout exceeded when trying to connect');
    if (timedOut || (typeof code === 'string' && UNAVAILABLE_CODES.has(code))) {
      throw new DatabaseUnavailableError(String(message), { cause: error });
    }
    throw error;
  }
};

/** Text Postgres will not hold: 22021 (a NUL in text), 22P05 (a `\u0000` in JSON). */
const NUL_CODES = new Set(['22021', '22P05']);
/** 22P02: text that is not valid input for its type, such as JSON spelling a lone surrogate. */
const INVALID_TEXT_CODE = '22P02';

/** A UTF-16 surrogate without its pair: with the `u` flag, a pair reads as one code point and does not match. */
const LONE_SURROGATE = /\p{Cs}/u;
/** A `\uD800`-`\uDFFF` escape in JSON text, its backslash not itself escaped. */
const SURROGATE_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * Refuses, before sending, a text value Postgres would store as U+FFFD: node-pg writes a lone
 * surrogate as the replacement character, silently changing the client's text.
 */
const loneSurrogateIn = (values: readonly unknown[] | undefined): UnstorableTextError | null =>
  values?.some((value) => typeof value === 'string' && LONE_SURROGATE.test(value))
    ? new UnstorableTextError('lone-surrogate', 'A text value holds a lone surrogate.')
    : null;

const refuseUnstorableText = (error: unknown, values: readonly unknown[] | undefined): never => {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NUL_CODES.has(code))
    throw new UnstorableTextError('nul', (error as Error).message, { cause: error });
  // JSON values are written as JSON.stringify text, which spells a lone surrogate as an escape.
  if (code === INVALID_TEXT_CODE && values?.some((value) => typeof value === 'string' && SURROGATE_ESCAPE.test(value)))
    throw new UnstorableTextError('lone-surrogate', (error as Error).message, { cause: error });
  throw error;
};

/**
 * How many distinct statements get a name. Each named statement is parsed and planned once per
 * connection and kept by the server for the connection's life, so their number must stay bounded:
 * statements whose text varies with their data (an `in` list of any length) would otherwise grow
 * the server's memory without end. Past the bound, statements run unnamed, as before.
 */
const MAX_NAMED = 1000;

/**
 * Kysely's pool on node-pg's, running Kysely's statements as named prepared statements: the
 * engine sends the same dozen statements for every run, and parsing and planning each anew was a large part of the
 * database's CPU per run.
 */
export const withPreparedStatements = (
  pool: pg.Pool,
  { maxNamed = MAX_NAMED, counts = newStatementCounts() }: { maxNamed?: number; counts?: StatementCounts } = {},
): PostgresPool => {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < maxNamed) {
      name = `k${createHash('sha1').update(text).digest('base64url')}`;
      names.set(text, name);
    }
    return name;
  };
  const wrap = (client: pg.PoolClient): PostgresPoolClient =>
    ({
      query: (textOrCursor: unknown, values?: readonly unknown[]) => {
        counts.statements++;
        if (typeof textOrCursor !== 'string') return client.query(textOrCursor as pg.Submittable);
        if (textOrCursor === 'commit') counts.commits++;
        const name = nameOf(textOrCursor);
        const refused = loneSurrogateIn(values);
        if (refused) return Promise.reject(refused);
        return client
          .query(name === undefined ? textOrCursor : { name, text: textOrCursor }, values as unknown[] | undefined)
          .catch((error: unknown) => refuseUnstorableText(passingFailure(error), values));
      },
      release: () => client.release(),
    }) as unknown as PostgresPoolClient;
  return {
    connect: async () => wrap(await acquire(pool)),
    end: () => pool.end(),
  };
};
