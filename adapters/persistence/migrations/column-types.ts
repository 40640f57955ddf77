import { type Kysely, PostgresAdapter } from 'kysely';

/** Column types of the one logical schema, spelled for the dialect a migration runs on. */
export const columnTypes = (db: Kysely<unknown>) => {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    postgres,
    timestamp: postgres ? 'timestamptz' : 'text',
    bool: postgres ? 'boolean' : 'integer',
    json: postgres ? 'jsonb' : 'text',
    int8: postgres ? 'bigint' : 'integer',
    /** An 8-byte float on both (Postgres' `real` is 4 bytes: 0.7 would read back as 0.699999988). */
    double: postgres ? 'double precision' : 'real',
  } as const;
};
