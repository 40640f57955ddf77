import type { Selectable } from 'kysely';
import type { FlowHook, FlowHookRepository } from '../../../ports/flow-hook-repository.js';
import type { FlowHooksTable } from '../schema.js';
import type { Executor } from './executor.js';

/** The flow id is the sealed state's context: a state copied to another flow's row does not open. */
const sealContext = (flowId: string) => `flow-hook:${flowId}`;

export const createFlowHookRepository = ({ db, codec, secretBox }: Executor): FlowHookRepository => {
  const toHook = (row: Selectable<FlowHooksTable>): FlowHook => ({
    flowId: row.flow_id,
    appKey: row.app_key,
    triggerKey: row.trigger_key,
    connectionId: row.connection_id,
    parameters: codec.readJson(row.parameters),
    webhookUrl: row.webhook_url,
    state: JSON.parse(secretBox.open(row.state, sealContext(row.flow_id))),
    createdAt: codec.readTimestamp(row.created_at),
  });

  return {
    async find(flowId) {
      const row = await db.selectFrom('flow_hooks').selectAll().where('flow_id', '=', flowId).executeTakeFirst();
      return row ? toHook(row) : null;
    },

    async insert(hook) {
      const kept = await db
        .insertInto('flow_hooks')
        .values({
          flow_id: hook.flowId,
          app_key: hook.appKey,
          trigger_key: hook.triggerKey,
          connection_id: hook.connectionId,
          parameters: codec.json(hook.parameters),
          webhook_url: hook.webhookUrl,
          state: secretBox.seal(JSON.stringify(hook.state ?? null), sealContext(hook.flowId)),
          created_at: codec.timestamp(hook.createdAt),
        })
        .onConflict((oc) => oc.column('flow_id').doNothing())
        .returning('flow_id')
        .execute();
      return kept.length > 0;
    },

    async delete(flowId) {
      await db.deleteFrom('flow_hooks').where('flow_id', '=', flowId).execute();
    },

    async listStale(limit) {
      const rows = await db
        .selectFrom('flow_hooks')
        .leftJoin('flows', 'flows.id', 'flow_hooks.flow_id')
        .select('flow_hooks.flow_id')
        .where((eb) => eb.or([eb('flows.id', 'is', null), eb('flows.active', '=', codec.bool(false))]))
        .orderBy('flow_hooks.flow_id')
        .limit(limit)
        .execute();
      return rows.map((row) => row.flow_id);
    },
  };
};
