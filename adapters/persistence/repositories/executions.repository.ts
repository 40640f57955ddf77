import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Execution, ExecutionStatus } from '../../../core/domain/execution.js';
import type {
  AfterStep,
  ExecutionFilter,
  ExecutionRepository,
  ExecutionWithFlow,
  NewExecution,
} from '../../../ports/execution-repositories.js';
import type { ExecutionsTable, FlowsTable } from '../schema.js';
import { createExecutionStepRepository, executionStepFromRow, executionStepRow } from './execution-steps.repository.js';
import { type Executor, withinTransaction } from './executor.js';
import { flowFromRow } from './flows.repository.js';
import { likePattern } from './like-pattern.js';
import {
  claimRun,
  claimRunWithSteps,
  countFinishedRunTasks,
  insertRecord,
  moveRun,
  type RecordRow,
  type RunRow,
  recordAndMoveRun,
  runOwnerRemoved,
  startRun,
  type TriggerRecordRow,
} from './run-statements.js';
import { createStepRepository, stepFromRow } from './steps.repository.js';

type Row = Selectable<ExecutionsTable>;
type FlowRow = Selectable<FlowsTable>;
type RowWithFlow = Row & {
  flow_user_id: FlowRow['user_id'];
  flow_folder_id: FlowRow['folder_id'];
  flow_name: FlowRow['name'];
  flow_active: FlowRow['active'];
  flow_published_at: FlowRow['published_at'];
  flow_created_at: FlowRow['created_at'];
  flow_updated_at: FlowRow['updated_at'];
};

/** The run's flow, read in the same statement as the run. */
const FLOW_COLUMNS = [
  'flows.user_id as flow_user_id',
  'flows.folder_id as flow_folder_id',
  'flows.name as flow_name',
  'flows.active as flow_active',
  'flows.published_at as flow_published_at',
  'flows.created_at as flow_created_at',
  'flows.updated_at as flow_updated_at',
] as const;

export const createExecutionRepository = (executor: Executor): ExecutionRepository => {
  const { db, codec } = executor;
  // What a claim reads beside the run, on SQLite (Postgres reads it in the claim's statement).
  const steps = createStepRepository(executor);
  const records = createExecutionStepRepository(executor);
  const time = (value: Date | string | null) => (value === null ? null : codec.readTimestamp(value));
  const toExecution = (row: Row): Execution => ({
    id: row.id,
    flowId: row.flow_id,
    status: row.status as ExecutionStatus,
    testRun: codec.readBool(row.test_run),
    untilStepId: row.until_step_id,
    retryOf: row.retry_of,
    resumeAt: time(row.resume_at),
    stepAttempts: row.step_attempts,
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
    finishedAt: time(row.finished_at),
  });
  const withFlow = (row: RowWithFlow): ExecutionWithFlow => ({
    ...toExecution(row),
    flow: flowFromRow(codec, {
      id: row.flow_id,
      user_id: row.flow_user_id,
      folder_id: row.flow_folder_id,
      name: row.flow_name,
      active: row.flow_active,
      published_at: row.flow_published_at,
      created_at: row.flow_created_at,
      updated_at: row.flow_updated_at,
    }),
  });

  const executionRow = (execution: NewExecution): Insertable<ExecutionsTable> => {
    const now = codec.timestamp(execution.now);
    return {
      id: execution.id,
      flow_id: execution.flowId,
      status: 'running',
      test_run: codec.bool(execution.testRun),
      until_step_id: execution.untilStepId,
      retry_of: execution.retryOf,
      resume_at: null,
      lease_owner: null,
      lease_until: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    };
  };
  const waiting = (resumeAt: Date, stepAttempts: number, now: Date): Updateable<ExecutionsTable> => ({
    status: 'waiting',
    resume_at: codec.timestamp(resumeAt),
    step_attempts: stepAttempts,
    lease_owner: null,
    lease_until: null,
    updated_at: codec.timestamp(now),
  });
  const advanced = (now: Date): Updateable<ExecutionsTable> => ({ step_attempts: 0, updated_at: codec.timestamp(now) });
  const finished = (status: 'success' | 'failure', now: Date): Updateable<ExecutionsTable> => {
    const at = codec.timestamp(now);
    return { status, lease_owner: null, lease_until: null, resume_at: null, updated_at: at, finished_at: at };
  };
  const afterStep = (next: AfterStep, now: Date): Updateable<ExecutionsTable> | null => {
    if (next.kind === 'finish') return finished(next.status, now);
    if (next.kind === 'wait') return waiting(next.resumeAt, 0, now);
    return next.resetAttempts ? advanced(now) : null;
  };

  const joined = () =>
    db
      .selectFrom('executions')
      .innerJoin('flows', 'flows.id', 'executions.flow_id')
      .selectAll('executions')
      .select(FLOW_COLUMNS);

  const filtered = (filter: ExecutionFilter) => {
    let query = db.selectFrom('executions').innerJoin('flows', 'flows.id', 'executions.flow_id');
    if (filter.ownerId !== null) query = query.where('flows.user_id', '=', filter.ownerId);
    if (filter.flowId) query = query.where('executions.flow_id', '=', filter.flowId);
    if (filter.flowName) {
      query = query.where(sql<boolean>`lower(flows.name) like ${likePattern(filter.flowName)} escape '\\'`);
    }
    if (filter.status) query = query.where('executions.status', '=', filter.status);
    if (filter.from) query = query.where('executions.created_at', '>=', codec.timestamp(filter.from));
    if (filter.to) query = query.where('executions.created_at', '<=', codec.timestamp(filter.to));
    return query;
  };

  return {
    async insert(execution) {
      await db.insertInto('executions').values(executionRow(execution)).execute();
    },

    async start(runs) {
      if (runs.length === 0) return;
      const executions = runs.map((run) => executionRow(run.execution));
      const triggers = runs.map((run) => executionStepRow(codec, run.trigger));
      if (codec.dialect === 'postgres' && runs.length > 1) {
        // A poll's new items: one statement, atomic without a transaction, and one round trip.
        await db
          .with('runs', (cte) => cte.insertInto('executions').values(executions))
          .insertInto('execution_steps')
          .values(triggers)
          .execute();
        return;
      }
      // One run on Postgres is one compiled statement; on SQLite each run's two share a transaction.
      const all = async (into: Executor) => {
        for (const [i, run] of executions.entries()) {
          await startRun(into, run as RunRow, triggers[i] as TriggerRecordRow);
        }
      };
      return codec.dialect === 'postgres' ? all(executor) : withinTransaction(executor, all);
    },

    async findById(id) {
      const row = await joined().where('executions.id', '=', id).executeTakeFirst();
      return row ? withFlow(row) : null;
    },

    async list(filter, { page, perPage }) {
      const { count } = await filtered(filter)
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow();
      const rows = await filtered(filter)
        .selectAll('executions')
        .select(FLOW_COLUMNS)
        .orderBy('executions.created_at', 'desc')
        .orderBy('executions.id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { items: rows.map(withFlow), total: codec.readInt(count as string | number), page, perPage };
    },

    async claim(id, lease, now) {
      const values = { id, owner: lease.owner, until: codec.timestamp(lease.until), at: codec.timestamp(now) };
      if (codec.dialect === 'postgres') {
        const [row] = (await claimRunWithSteps(executor, values)).rows;
        if (!row) return null;
        const { claimed_steps, claimed_records, claimed_owner_removed, ...execution } = row;
        return {
          execution: toExecution(execution),
          steps: claimed_steps.map((step) => stepFromRow(codec, step)),
          recorded: claimed_records.map((record) => executionStepFromRow(codec, record)),
          ownerRemoved: claimed_owner_removed,
        };
      }
      const [row] = (await claimRun(executor, values)).rows;
      if (!row) return null;
      return {
        execution: toExecution(row),
        steps: await steps.listByFlow(row.flow_id),
        recorded: await records.listByExecution(row.id),
        ownerRemoved: (await runOwnerRemoved(executor, { flow_id: row.flow_id })).rows.length > 0,
      };
    },

    async renew(ids, lease) {
      if (ids.length === 0) return;
      await db
        .updateTable('executions')
        .set({ lease_until: codec.timestamp(lease.until) })
        .where('id', 'in', ids)
        .where('lease_owner', '=', lease.owner)
        .where('status', '=', 'running')
        .execute();
    },

    async wait(id, resumeAt, stepAttempts, now) {
      await db
        .updateTable('executions')
        .set(waiting(resumeAt, stepAttempts, now))
        .where('id', '=', id)
        .execute();
    },

    async advance(id, now) {
      await db.updateTable('executions').set(advanced(now)).where('id', '=', id).execute();
    },

    async finish(id, status, now) {
      await withinTransaction(executor, async (tx) => {
        await moveRun(tx, id, finished(status, now));
        await countFinishedRunTasks(tx, id, now);
      });
    },

    async recordStep(step, next) {
      // Every step the engine records is an action it ran: a task (when the run is not a test).
      const row = { ...executionStepRow(codec, step), is_task: codec.bool(true) } as RecordRow;
      const update = afterStep(next, step.now);
      if (!update) return insertRecord(executor, row);
      if (codec.dialect === 'postgres') return recordAndMoveRun(executor, row, update, step.now);
      return withinTransaction(executor, async (tx) => {
        if (!(await insertRecord(tx, row))) return false;
        await moveRun(tx, step.executionId, update);
        if (next.kind === 'finish') await countFinishedRunTasks(tx, step.executionId, step.now);
        return true;
      });
    },

    async findStranded(now, unclaimedSince, limit) {
      const at = codec.timestamp(now);
      const rows = await db
        .selectFrom('executions')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'running'), eb('lease_until', '<', at)]),
            eb.and([
              eb('status', '=', 'running'),
              eb('lease_until', 'is', null),
              eb('updated_at', '<', codec.timestamp(unclaimedSince)),
            ]),
            eb.and([eb('status', '=', 'waiting'), eb('resume_at', '<=', at)]),
          ]),
        )
        .orderBy('updated_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    async deleteFinishedBefore(cutoff, limit) {
      const ids = (
        await db
          .selectFrom('executions')
          .select('id')
          .where('finished_at', '<', codec.timestamp(cutoff))
          .orderBy('finished_at')
          .limit(limit)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) return 0;
      await db.deleteFrom('execution_steps').where('execution_id', 'in', ids).execute();
      await db.deleteFrom('executions').where('id', 'in', ids).execute();
      return ids.length;
    },
    async countByStatus() {
      const rows = await db
        .selectFrom('executions')
        .select(['status', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
        .groupBy('status')
        .execute();
      const counts: Record<ExecutionStatus, number> = { running: 0, waiting: 0, success: 0, failure: 0 };
      for (const row of rows) counts[row.status as ExecutionStatus] = Number(row.count);
      return counts;
    },
    async countRunningByFlow() {
      const rows = await db
        .selectFrom('executions')
        .select(['flow_id', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
        .where('status', '=', 'running')
        .groupBy('flow_id')
        .execute();
      return new Map(rows.map((row) => [row.flow_id, Number(row.count)]));
    },
  };
};
