import { type Kysely, sql } from 'kysely';

/**
 * How many stored secrets each encryption key sealed, by key id: the second part of a sealed value
 * `v1.<key id>.<data>` (adapters/auth/secret-box.ts). One grouped read of each sealed column, so
 * that a start can tell a key that opens nothing before anything is read with it.
 */
export const sealedKeyIds = async (db: Kysely<any>): Promise<Map<string, number>> => {
  const { rows } = await sql<{ key_id: string; sealed: number | string }>`
    select key_id, count(*) as sealed from (
      select substr(credentials, 4, 8) as key_id from connections
      union all
      select substr(settings, 4, 8) as key_id from oauth_clients
    ) as sealed_values group by key_id`.execute(db);
  return new Map(rows.map((row) => [row.key_id, Number(row.sealed)]));
};
