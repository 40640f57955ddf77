import type { Kysely, Selectable } from 'kysely';
import type { Credentials } from '../../../core/domain/app.js';
import type { Connection } from '../../../core/domain/connection.js';
import type { ConnectionRepository } from '../../../ports/repositories.js';
import { createKeyedLock, type KeyedLock } from '../keyed-lock.js';
import type { ConnectionsTable, Database } from '../schema.js';
import type { Executor } from './executor.js';

/** The row id is the sealed credentials' context: a ciphertext copied to another row does not open. */
const sealContext = (id: string) => `connection:${id}`;
/** Another context for the code verifier: the two sealed columns of a row cannot stand in for each other. */
const verifierContext = (id: string) => `connection-code-verifier:${id}`;

/** The in-process half of a credential change's lock, one per database handle (repositories come and go). */
const changeLocks = new WeakMap<Kysely<Database>, KeyedLock>();
const changeLockOf = (db: Kysely<Database>): KeyedLock => {
  let lock = changeLocks.get(db);
  if (!lock) {
    lock = createKeyedLock();
    changeLocks.set(db, lock);
  }
  return lock;
};

export const createConnectionRepository = ({ db, codec, secretBox }: Executor): ConnectionRepository => {
  const toConnection = (row: Selectable<ConnectionsTable>): Connection => ({
    id: row.id,
    appKey: row.app_key,
    userId: row.user_id,
    oauthClientId: row.oauth_client_id,
    verified: codec.readBool(row.verified),
    screenName: row.screen_name,
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });
  const seal = (id: string, credentials: Credentials) => secretBox.seal(JSON.stringify(credentials), sealContext(id));
  const open = (id: string, sealed: string) => JSON.parse(secretBox.open(sealed, sealContext(id))) as Credentials;

  return {
    async insert(connection) {
      const now = codec.timestamp(connection.now);
      const row = {
        id: connection.id,
        user_id: connection.userId,
        app_key: connection.appKey,
        oauth_client_id: connection.oauthClientId,
        credentials: seal(connection.id, connection.credentials),
        verified: codec.bool(false),
        screen_name: null,
        oauth_state_hash: null,
        oauth_state_expires_at: null,
        oauth_code_verifier: null,
        draft: codec.bool(true),
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('connections').values(row).execute();
      return toConnection(row);
    },

    async findById(id) {
      const row = await db
        .selectFrom('connections')
        .innerJoin('users', 'users.id', 'connections.user_id')
        .selectAll('connections')
        .select('users.deleted_at as owner_removed_at')
        .where('connections.id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return {
        ...toConnection(row),
        credentials: open(row.id, row.credentials),
        oauthState:
          row.oauth_state_hash && row.oauth_state_expires_at
            ? {
                hash: row.oauth_state_hash,
                expiresAt: codec.readTimestamp(row.oauth_state_expires_at),
                codeVerifier: row.oauth_code_verifier
                  ? secretBox.open(row.oauth_code_verifier, verifierContext(row.id))
                  : null,
              }
            : null,
        ownerRemoved: row.owner_removed_at !== null,
      };
    },

    async listByApp(appKey, { ownerId, drafts }) {
      let query = db.selectFrom('connections').selectAll().where('app_key', '=', appKey);
      if (ownerId) query = query.where('user_id', '=', ownerId);
      if (!drafts) query = query.where('draft', '=', codec.bool(false));
      const rows = await query.orderBy('created_at', 'desc').orderBy('id').execute();
      return rows.map(toConnection);
    },

    async update(id, changes, now) {
      await db
        .updateTable('connections')
        .set({
          ...(changes.credentials !== undefined && { credentials: seal(id, changes.credentials) }),
          ...(changes.verified !== undefined && { verified: codec.bool(changes.verified) }),
          // Verified once, a connection is no draft any more, whatever later checks find.
          ...(changes.verified === true && { draft: codec.bool(false) }),
          ...(changes.screenName !== undefined && { screen_name: changes.screenName }),
          ...(changes.oauthClientId !== undefined && { oauth_client_id: changes.oauthClientId }),
          ...(changes.oauthState !== undefined && {
            oauth_state_hash: changes.oauthState?.hash ?? null,
            oauth_state_expires_at: changes.oauthState ? codec.timestamp(changes.oauthState.expiresAt) : null,
            oauth_code_verifier: changes.oauthState?.codeVerifier
              ? secretBox.seal(changes.oauthState.codeVerifier, verifierContext(id))
              : null,
          }),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', id)
        .execute();
    },

    async changeCredentials(id, change, now) {
      if (db.isTransaction) throw new Error('A credential change holds its own transaction: call it outside one.');
      const apply = async (q: Kysely<Database>) => {
        let read = q.selectFrom('connections').select('credentials').where('id', '=', id);
        // The row's lock makes another process's change wait until this one commits, then read its result.
        if (codec.dialect === 'postgres') read = read.forUpdate();
        const row = await read.executeTakeFirst();
        if (!row) return null;
        const stored = open(id, row.credentials);
        const next = await change(stored);
        if (!next || (next.credentials === undefined && next.verified === undefined)) return stored;
        const written = await q
          .updateTable('connections')
          .set({
            ...(next.credentials !== undefined && { credentials: seal(id, next.credentials) }),
            ...(next.verified !== undefined && { verified: codec.bool(next.verified) }),
            updated_at: codec.timestamp(now()),
          })
          .where('id', '=', id)
          // Only over what the change started from: a write that came meanwhile (a reconnection,
          // which takes no lock on SQLite) is newer, and wins.
          .where('credentials', '=', row.credentials)
          .executeTakeFirst();
        if (written.numUpdatedRows > 0n) return next.credentials ?? stored;
        const newer = await q.selectFrom('connections').select('credentials').where('id', '=', id).executeTakeFirst();
        return newer ? open(id, newer.credentials) : null;
      };
      // SQLite has one writer connection, which a transaction would hold while `change` waits on the
      // network; one process uses it, so the lock in the process is the whole lock there.
      return changeLockOf(db)(id, () =>
        codec.dialect === 'postgres' ? db.transaction().execute((trx) => apply(trx)) : apply(db),
      );
    },

    async delete(id) {
      await db.deleteFrom('connections').where('id', '=', id).execute();
    },

    async countByApp(userId) {
      const rows = await db
        .selectFrom('connections')
        .select(['app_key', (eb) => eb.fn.countAll().as('count')])
        .where('user_id', '=', userId)
        .groupBy('app_key')
        .execute();
      return rows.map((r) => ({ appKey: r.app_key, count: codec.readInt(r.count as string | number) }));
    },
  };
};
