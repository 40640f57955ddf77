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
      union all
      select substr(state, 4, 8) as key_id from flow_hooks
    ) as sealed_values group by key_id`.execute(db);
  return new Map(rows.map((row) => [row.key_id, Number(row.sealed)]));
};

/** What `forgetUnreadable` deleted, or would delete. */
export interface Forgotten {
  readonly connections: number;
  readonly oauthClients: number;
  /** Instant triggers' hooks whose state no key opens: the vendor keeps them (their ids are sealed). */
  readonly flowHooks: number;
}

/**
 * Deletes (with `apply`; counts otherwise) the connections, OAuth clients and instant triggers'
 * hooks sealed with a key not in `readable` (key ids), and the connections made through such a client: the way out when a key
 * is lost for good. Steps that used a deleted connection keep no reference to it (on delete set
 * null) and ask for a new one.
 */
export const forgetUnreadable = async (
  db: Kysely<any>,
  readable: readonly string[],
  apply: boolean,
): Promise<Forgotten> =>
  db.transaction().execute(async (trx) => {
    // `not in ()` is no SQL: with no key at all, every sealed value is unreadable.
    const unreadable = (column: string) =>
      readable.length === 0
        ? sql<boolean>`1 = 1`
        : sql<boolean>`substr(${sql.ref(column)}, 4, 8) not in (${sql.join(readable)})`;
    const clients = (await trx.selectFrom('oauth_clients').select('id').where(unreadable('settings')).execute()).map(
      (row) => row.id as string,
    );
    let connections = trx.selectFrom('connections').select('id').where(unreadable('credentials'));
    if (clients.length > 0)
      connections = connections.union(
        trx.selectFrom('connections').select('id').where('oauth_client_id', 'in', clients),
      );
    const connectionIds = (await connections.execute()).map((row) => row.id as string);
    const hooks = (await trx.selectFrom('flow_hooks').select('flow_id').where(unreadable('state')).execute()).map(
      (row) => row.flow_id as string,
    );
    if (apply) {
      if (connectionIds.length > 0) await trx.deleteFrom('connections').where('id', 'in', connectionIds).execute();
      if (clients.length > 0) await trx.deleteFrom('oauth_clients').where('id', 'in', clients).execute();
      if (hooks.length > 0) await trx.deleteFrom('flow_hooks').where('flow_id', 'in', hooks).execute();
    }
    return { connections: connectionIds.length, oauthClients: clients.length, flowHooks: hooks.length };
  });
