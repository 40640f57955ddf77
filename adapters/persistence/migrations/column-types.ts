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
  } as const;
};
