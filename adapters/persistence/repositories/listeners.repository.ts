import type { Selectable } from 'kysely';
import type { FlowListener, ListenerStatus } from '../../../core/domain/listener.js';
import type { ListenerRepository } from '../../../ports/listener-repository.js';
import type { Codec } from '../codec.js';
import type { FlowListenersTable } from '../schema.js';
import type { Executor } from './executor.js';

const toListener = (codec: Codec, row: Selectable<FlowListenersTable>): FlowListener => ({
  flowId: row.flow_id,
  revision: codec.readInt(row.revision),
  connectionId: row.connection_id,
  holder: row.holder,
  leaseUntil: row.lease_until === null ? null : codec.readTimestamp(row.lease_until),
  status: row.status as ListenerStatus,
  failures: codec.readInt(row.failures),
  lastError: row.last_error,
  lastErrorAt: row.last_error_at === null ? null : codec.readTimestamp(row.last_error_at),
  updatedAt: codec.readTimestamp(row.updated_at),
});

export const createListenerRepository = ({ db, codec }: Executor): ListenerRepository => ({
  async want(flowId, versionId, connectionId, now) {
    const at = codec.timestamp(now);
    await db
      .insertInto('flow_listeners')
      .values({
        flow_id: flowId,
        revision: 1,
        version_id: versionId,
        connection_id: connectionId,
        holder: null,
        lease_until: null,
        status: 'starting',
        failures: 0,
        last_error: null,
        last_error_at: null,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .column('flow_id')
          .doUpdateSet((eb) => ({
            revision: eb('flow_listeners.revision', '+', 1),
            version_id: versionId,
            connection_id: connectionId,
          }))
          // The same version on the same connection (a worker's start reconciling) reopens nothing.
          .where((eb) =>
            eb.or([
              eb('flow_listeners.version_id', 'is distinct from', eb.ref('excluded.version_id')),
              eb('flow_listeners.connection_id', 'is distinct from', eb.ref('excluded.connection_id')),
            ]),
          ),
      )
      .execute();
  },

  async drop(flowId) {
    await db.deleteFrom('flow_listeners').where('flow_id', '=', flowId).execute();
  },

  async touchConnection(connectionId) {
    await db
      .updateTable('flow_listeners')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('connection_id', '=', connectionId)
      .execute();
  },

  async find(flowId) {
    const row = await db.selectFrom('flow_listeners').selectAll().where('flow_id', '=', flowId).executeTakeFirst();
    return row ? toListener(codec, row) : null;
  },

  async findMany(flowIds) {
    if (flowIds.length === 0) return [];
    const rows = await db.selectFrom('flow_listeners').selectAll().where('flow_id', 'in', flowIds).execute();
    return rows.map((row) => toListener(codec, row));
  },

  async claim(holder, now, leaseUntil, limit) {
    const at = codec.timestamp(now);
    const free = await db
      .selectFrom('flow_listeners')
      .select('flow_id')
      .where((eb) => eb.or([eb('holder', 'is', null), eb('lease_until', '<', at)]))
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    const taken: FlowListener[] = [];
    for (const { flow_id } of free) {
      // Taken only if still free as this write sees it: of two processes, one wins.
      const row = await db
        .updateTable('flow_listeners')
        .set({ holder, lease_until: codec.timestamp(leaseUntil) })
        .where('flow_id', '=', flow_id)
        .where((eb) => eb.or([eb('holder', 'is', null), eb('lease_until', '<', at)]))
        .returningAll()
        .executeTakeFirst();
      if (row) taken.push(toListener(codec, row));
    }
    return taken;
  },

  async renew(holder, leaseUntil) {
    const rows = await db
      .updateTable('flow_listeners')
      .set({ lease_until: codec.timestamp(leaseUntil) })
      .where('holder', '=', holder)
      .returningAll()
      .execute();
    return rows.map((row) => toListener(codec, row));
  },

  async release(holder, flowIds) {
    if (flowIds.length === 0) return;
    await db
      .updateTable('flow_listeners')
      .set({ holder: null, lease_until: null })
      .where('holder', '=', holder)
      .where('flow_id', 'in', flowIds)
      .execute();
  },

  async report(flowId, holder, report) {
    const at = codec.timestamp(report.now);
    await db
      .updateTable('flow_listeners')
      .set({
        status: report.status,
        failures: report.failures,
        updated_at: at,
        ...(report.lastError !== undefined && {
          last_error: report.lastError,
          last_error_at: report.lastError === null ? null : at,
        }),
      })
      .where('flow_id', '=', flowId)
      .where('holder', '=', holder)
      .execute();
  },

  async rememberMessages(flowId, keys, now) {
    if (keys.length === 0) return [];
    const unique = [...new Set(keys)];
    const inserted = await db
      .insertInto('listener_messages')
      .values(unique.map((key) => ({ flow_id: flowId, message_key: key, created_at: codec.timestamp(now) })))
      .onConflict((oc) => oc.columns(['flow_id', 'message_key']).doNothing())
      .returning('message_key')
      .execute();
    const fresh = new Set(inserted.map((row) => row.message_key));
    return unique.filter((key) => fresh.has(key));
  },

  async forgetMessages(before) {
    const result = await db
      .deleteFrom('listener_messages')
      .where('created_at', '<', codec.timestamp(before))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});
