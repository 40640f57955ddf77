import type { Insertable, Selectable } from 'kysely';
import type { ErrorDetails, ExecutionStep, ExecutionStepStatus } from '../../../core/domain/execution.js';
import type {
  ClaimedRecord,
  ExecutionStepRepository,
  NewExecutionStep,
} from '../../../ports/execution-repositories.js';
import type { Codec } from '../codec.js';
import type { ExecutionStepsTable } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
import type { Executor } from './executor.js';

/**
 * A run's records in the order they were made (a loop's iterations one after another; a retry's
 * copies keep their times and come first): read for every run a worker claims.
 */
const recordsOfExecution = compiledOnce(['executionId'], (db, v) =>
  db
    .selectFrom('execution_steps')
    .selectAll()
    .where('execution_id', '=', v.executionId)
    .orderBy('created_at')
    .orderBy('id'),
);

/** The row of a step's record: shared with the run's own repository, which records steps too. */
export const executionStepRow = (codec: Codec, step: NewExecutionStep): Insertable<ExecutionStepsTable> => {
  const store = (value: unknown) => (value === undefined || value === null ? null : codec.json(value));
  return {
    id: step.id,
    execution_id: step.executionId,
    step_id: step.stepId,
    position: step.position,
    status: step.status,
    data_in: store(step.dataIn),
    data_out: store(step.dataOut),
    error_details: store(step.errorDetails),
    created_at: codec.timestamp(step.now),
    scope: step.scope ?? '',
    parent_step_id: step.parentStepId ?? null,
    branch_id: step.branchId ?? null,
    iteration: step.iteration ?? null,
  };
};

/** A step's record from its row: shared with the runs' repository, which reads them as it claims a run. */
export const executionStepFromRow = (codec: Codec, row: Selectable<ExecutionStepsTable>): ExecutionStep => {
  const json = (value: unknown) => (value === null || value === undefined ? null : codec.readJson<unknown>(value));
  return {
    id: row.id,
    executionId: row.execution_id,
    stepId: row.step_id,
    position: row.position,
    status: row.status as ExecutionStepStatus,
    dataIn: json(row.data_in),
    dataOut: json(row.data_out),
    errorDetails: json(row.error_details) as ErrorDetails | null,
    createdAt: codec.readTimestamp(row.created_at),
    scope: row.scope ?? '',
    parentStepId: row.parent_step_id ?? null,
    branchId: row.branch_id ?? null,
    iteration: row.iteration ?? null,
  };
};

/** A record as a worker reads it when it takes its run up: whether it is a task comes with it. */
export const claimedRecordFromRow = (codec: Codec, row: Selectable<ExecutionStepsTable>): ClaimedRecord => ({
  ...executionStepFromRow(codec, row),
  task: codec.readBool(row.is_task),
});

/** A run's records in order, as a worker takes the run up (SQLite; Postgres reads them in the claim). */
export const claimedRecordsOf = async (executor: Executor, executionId: string): Promise<ClaimedRecord[]> => {
  const { rows } = await recordsOfExecution(executor, { executionId });
  return rows.map((row) => claimedRecordFromRow(executor.codec, row));
};

export const createExecutionStepRepository = (executor: Executor): ExecutionStepRepository => {
  const { db, codec } = executor;
  const toStep = (row: Selectable<ExecutionStepsTable>): ExecutionStep => executionStepFromRow(codec, row);

  return {
    async insert(step) {
      await db.insertInto('execution_steps').values(executionStepRow(codec, step)).execute();
    },

    async listByExecution(executionId) {
      const { rows } = await recordsOfExecution(executor, { executionId });
      return rows.map(toStep);
    },

    async page(executionId, { page, perPage }) {
      const { count } = await db
        .selectFrom('execution_steps')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('execution_id', '=', executionId)
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('execution_steps')
        .selectAll()
        .where('execution_id', '=', executionId)
        .orderBy('created_at')
        .orderBy('id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { items: rows.map(toStep), total: codec.readInt(count as string | number), page, perPage };
    },

    async latestSuccessful(stepIds) {
      if (stepIds.length === 0) return [];
      const rows = await db
        .selectFrom('execution_steps')
        .selectAll()
        .where('step_id', 'in', stepIds)
        .where('status', '=', 'success')
        .where(({ eb, selectFrom }) =>
          eb(
            'created_at',
            '=',
            selectFrom('execution_steps as newer')
              .select(({ fn }) => fn.max('newer.created_at').as('latest'))
              .whereRef('newer.step_id', '=', 'execution_steps.step_id')
              .where('newer.status', '=', 'success'),
          ),
        )
        .execute();
      // Two records of one step in the same instant: keep one.
      const byStep = new Map(rows.map((row) => [row.step_id, toStep(row)]));
      return [...byStep.values()];
    },

    async latest(stepId) {
      const row = await db
        .selectFrom('execution_steps')
        .selectAll()
        .where('step_id', '=', stepId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toStep(row) : null;
    },
  };
};
