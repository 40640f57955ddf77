import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * How many distinct statements get a name. Each named statement is parsed and planned once per
 * connection and kept by the server for the connection's life, so their number must stay bounded:
 * statements whose text varies with their data (an `in` list of any length) would otherwise grow
 * the server's memory without end. Past the bound, statements run unnamed, as before.
 */
const MAX_NAMED = 1000;

/**
 * Runs Kysely's statements as named prepared statements: the engine sends the same dozen
 * statements for every run, and parsing and planning each anew was a large part of the
 * database's CPU per run.
 */
export const withPreparedStatements = (pool: pg.Pool, maxNamed = MAX_NAMED): PostgresPool => {
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
        if (typeof textOrCursor !== 'string') return client.query(textOrCursor as pg.Submittable);
        const name = nameOf(textOrCursor);
        return client.query(
          name === undefined ? textOrCursor : { name, text: textOrCursor },
          values as unknown[] | undefined,
        );
      },
      release: () => client.release(),
    }) as unknown as PostgresPoolClient;
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
};
