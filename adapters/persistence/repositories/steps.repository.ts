import type { Selectable } from 'kysely';
import type {
  BranchConditions,
  Parameters,
  Step,
  StepStatus,
  StepType,
  StructuralType,
} from '../../../core/domain/flow.js';
import type { StepRepository } from '../../../ports/flow-repositories.js';
import type { Codec } from '../codec.js';
import type { StepsTable } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
import type { Executor } from './executor.js';

/** A flow's steps in order: read for every run a worker claims. */
const stepsOfFlow = compiledOnce(['flowId'], (db, v) =>
  db.selectFrom('steps').selectAll().where('flow_id', '=', v.flowId).orderBy('position').orderBy('id'),
);

/** A step from its row: shared with the runs' repository, which reads a run's steps as it claims it. */
export const stepFromRow = (codec: Codec, row: Selectable<StepsTable>): Step => ({
  id: row.id,
  flowId: row.flow_id,
  type: row.type as StepType,
  appKey: row.app_key,
  key: row.key,
  name: row.name,
  position: row.position,
  status: row.status as StepStatus,
  parameters: codec.readJson<Parameters>(row.parameters),
  connectionId: row.connection_id,
  appVersion: row.app_version,
  continueOnFailure: codec.readBool(row.continue_on_failure),
  structuralType: row.structural_type as StructuralType,
  parentStepId: row.parent_step_id,
  branchConditions: row.branch_conditions === null ? null : codec.readJson<BranchConditions>(row.branch_conditions),
  createdAt: codec.readTimestamp(row.created_at),
  updatedAt: codec.readTimestamp(row.updated_at),
});

export const createStepRepository = (executor: Executor): StepRepository => {
  const { db, codec } = executor;
  const toStep = (row: Selectable<StepsTable>): Step => stepFromRow(codec, row);

  return {
    async insert(steps) {
      if (steps.length === 0) return;
      await db
        .insertInto('steps')
        .values(
          steps.map((step) => ({
            id: step.id,
            flow_id: step.flowId,
            type: step.type,
            app_key: step.appKey,
            key: step.key,
            name: step.name,
            position: step.position,
            status: step.status,
            parameters: codec.json(step.parameters),
            connection_id: step.connectionId,
            app_version: step.appVersion,
            continue_on_failure: codec.bool(step.continueOnFailure ?? false),
            structural_type: step.structuralType ?? 'single',
            parent_step_id: step.parentStepId ?? null,
            branch_conditions: step.branchConditions ? codec.json(step.branchConditions) : null,
            created_at: codec.timestamp(step.now),
            updated_at: codec.timestamp(step.now),
          })),
        )
        .execute();
    },

    async findById(id) {
      const row = await db.selectFrom('steps').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toStep(row) : null;
    },

    async listByFlow(flowId) {
      const { rows } = await stepsOfFlow(executor, { flowId });
      return rows.map(toStep);
    },

    async listByFlows(flowIds) {
      if (flowIds.length === 0) return [];
      const rows = await db
        .selectFrom('steps')
        .selectAll()
        .where('flow_id', 'in', flowIds)
        .orderBy('flow_id')
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map(toStep);
    },

    async update(id, changes, now) {
      await db
        .updateTable('steps')
        .set({
          ...(changes.appKey !== undefined && { app_key: changes.appKey }),
          ...(changes.key !== undefined && { key: changes.key }),
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.parameters !== undefined && { parameters: codec.json(changes.parameters) }),
          ...(changes.connectionId !== undefined && { connection_id: changes.connectionId }),
          ...(changes.status !== undefined && { status: changes.status }),
          ...(changes.appVersion !== undefined && { app_version: changes.appVersion }),
          ...(changes.continueOnFailure !== undefined && {
            continue_on_failure: codec.bool(changes.continueOnFailure),
          }),
          ...(changes.position !== undefined && { position: changes.position }),
          ...(changes.structuralType !== undefined && { structural_type: changes.structuralType }),
          ...(changes.parentStepId !== undefined && { parent_step_id: changes.parentStepId }),
          ...(changes.branchConditions !== undefined && {
            branch_conditions: changes.branchConditions === null ? null : codec.json(changes.branchConditions),
          }),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', id)
        .execute();
    },

    async delete(id) {
      await db.deleteFrom('steps').where('id', '=', id).execute();
    },

    async detachConnection(connectionId, now) {
      const rows = await db
        .updateTable('steps')
        .set({ connection_id: null, status: 'incomplete', updated_at: codec.timestamp(now) })
        .where('connection_id', '=', connectionId)
        .returning('flow_id')
        .execute();
      return [...new Set(rows.map((row) => row.flow_id))];
    },
  };
};
