import { type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { Database, ExecutionStepsTable, ExecutionsTable, StepsTable } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
import type { Executor } from './executor.js';

/**
 * The statements every run executes, compiled once (compiled-once.ts): claiming it, recording a
 * step, moving the run on, and billing a finished run's tasks. They persist what the engine's run
 * state machine (core/domain/run-machine.ts) decided; no rule about runs lives here.
 */

/** A step's record as the engine writes it: an action it ran, so a task (executionStepRow plus is_task). */
const RECORD = [
  'id',
  'execution_id',
  'step_id',
  'position',
  'status',
  'data_in',
  'data_out',
  'error_details',
  'created_at',
  'is_task',
  'scope',
  'parent_step_id',
  'branch_id',
  'iteration',
] as const;
export type RecordRow = Record<(typeof RECORD)[number], unknown>;

/** The placeholders of `keys`, each found under its name with `prefix` in front. */
const pick = <K extends string>(keys: readonly K[], values: Record<string, never>, prefix = '') =>
  Object.fromEntries(keys.map((key) => [key, values[`${prefix}${key}`]])) as Record<K, never>;
/** The row's values, each under its column's name with `prefix` in front. */
const withPrefix = (prefix: string, row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [`${prefix}${key}`, value]));

/** One statement per key: an update's shape is the set of columns it writes. */
const perShape = <S>(make: (columns: readonly string[]) => S) => {
  const made = new Map<string, S>();
  return (columns: readonly string[]): S => {
    const key = columns.join(',');
    let statement = made.get(key);
    if (!statement) {
      statement = make(columns);
      made.set(key, statement);
    }
    return statement;
  };
};

const insertRecordOnce = compiledOnce(RECORD, (db, v) =>
  db
    .insertInto('execution_steps')
    .values(pick(RECORD, v))
    .onConflict((oc) => oc.columns(['execution_id', 'step_id', 'scope']).doNothing())
    .returning('id'),
);

const updateRun = perShape((columns) =>
  compiledOnce([...columns, 'run_id'], (db, v) =>
    db
      .updateTable('executions')
      .set(pick(columns, v))
      .where('id', '=', v.run_id as never),
  ),
);

/** What a bill row takes from the statement's values: the run's tasks and when they were counted. */
const billedValues = (v: Record<'tasks' | 'counted_at', never>) =>
  [sql<number>`cast(${v.tasks} as integer)`.as('tasks'), sql<string>`${v.counted_at}`.as('counted_at')] as const;

/**
 * A finished run's tasks (as the engine's run state machine counts them) for its flow's owner, once.
 * The row outlives the run's pruning and the flow's deletion.
 */
const billTasks = compiledOnce(['execution_id', 'tasks', 'counted_at'], (db, v) =>
  db
    .insertInto('usage_tasks')
    .columns(['execution_id', 'user_id', 'tasks', 'counted_at'])
    .expression((eb) =>
      eb
        .selectFrom('executions')
        .innerJoin('flows', 'flows.id', 'executions.flow_id')
        .where('executions.id', '=', v.execution_id)
        .select(['executions.id', 'flows.user_id', ...billedValues(v)]),
    )
    .onConflict((oc) => oc.column('execution_id').doNothing()),
);

const RECORD_AND_MOVE = (columns: readonly string[]) => [
  ...RECORD,
  ...columns.map((c) => `run_${c}`),
  'tasks',
  'counted_at',
];

/**
 * Postgres: the record, the run's move and, with `billing`, the finished run's tasks, in one
 * statement (one round trip; the update sees the record only if it went in, and the tasks go in
 * only if the run moved).
 */
const recordAndMove = (billing: boolean) =>
  perShape((columns) =>
    compiledOnce(RECORD_AND_MOVE(columns), (db, v) => {
      const withMoved = db
        .with('recorded', (cte) =>
          cte
            .insertInto('execution_steps')
            .values(pick(RECORD, v))
            .onConflict((oc) => oc.columns(['execution_id', 'step_id', 'scope']).doNothing())
            .returning('execution_id'),
        )
        .with('moved', (cte) =>
          cte
            .updateTable('executions')
            .set(pick(columns, v, 'run_'))
            .where('id', 'in', (eb) => eb.selectFrom('recorded').select('execution_id'))
            .returning(['id', 'flow_id']),
        );
      if (!billing) return withMoved.selectFrom('moved').select('id');
      return withMoved
        .with('billed', (cte) =>
          cte
            .insertInto('usage_tasks')
            .columns(['execution_id', 'user_id', 'tasks', 'counted_at'])
            .expression((eb) =>
              eb
                .selectFrom('moved')
                .innerJoin('flows', 'flows.id', 'moved.flow_id')
                .select(['moved.id', 'flows.user_id', ...billedValues(v)]),
            )
            .onConflict((oc) => oc.column('execution_id').doNothing()),
        )
        .selectFrom('moved')
        .select('id');
    }),
  );
const recordAndMoveUnbilled = recordAndMove(false);
const recordAndMoveBilled = recordAndMove(true);

/** Writes a step's record unless the run has one for that step already; whether it went in. */
export const insertRecord = async (executor: Executor, row: RecordRow): Promise<boolean> =>
  (await insertRecordOnce(executor, row)).rows.length > 0;

/** Sets a run's columns. */
export const moveRun = async (executor: Executor, id: string, update: Updateable<ExecutionsTable>): Promise<void> => {
  await updateRun(Object.keys(update))(executor, { ...update, run_id: id });
};

/** Bills a finished run's tasks to its flow's owner (once per run). */
export const billRunTasks = async (
  executor: Executor,
  executionId: string,
  tasks: number,
  now: Date,
): Promise<void> => {
  await billTasks(executor, { execution_id: executionId, tasks, counted_at: executor.codec.timestamp(now) });
};

/**
 * Postgres only: the record and the run's move in one statement, with the finished run's tasks
 * when `tasks` is not null.
 */
export const recordAndMoveRun = async (
  executor: Executor,
  row: RecordRow,
  update: Updateable<ExecutionsTable>,
  bill: { readonly tasks: number | null; readonly now: Date },
): Promise<boolean> => {
  const statement = (bill.tasks === null ? recordAndMoveUnbilled : recordAndMoveBilled)(Object.keys(update));
  const { rows } = await statement(executor, {
    ...row,
    ...withPrefix('run_', update),
    tasks: bill.tasks,
    counted_at: executor.codec.timestamp(bill.now),
  });
  return rows.length > 0;
};

type ClaimValues = Record<'id' | 'owner' | 'until' | 'at', never>;

/** Takes a run that is free: running with no live lease (or this worker's), or waiting and due. */
const claimable = (db: Kysely<Database>, v: ClaimValues) =>
  db
    .updateTable('executions')
    .set({ status: 'running', resume_at: null, lease_owner: v.owner, lease_until: v.until, updated_at: v.at })
    .where('id', '=', v.id)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', '=', 'running'),
          eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', v.at), eb('lease_owner', '=', v.owner)]),
        ]),
        eb.and([eb('status', '=', 'waiting'), eb('resume_at', '<=', v.at)]),
      ]),
    )
    .returningAll();

const CLAIM = ['id', 'owner', 'until', 'at'] as const;

/** Whether the account of the claimed run's flow's owner was removed: a run of theirs ends at its claim. */
const ownerRemoved = (run: 'claimed' | 'executions') =>
  sql<boolean>`exists (select 1 from flows f join users u on u.id = f.user_id where f.id = ${sql.ref(`${run}.flow_id`)} and u.deleted_at is not null)`.as(
    'claimed_owner_removed',
  );

/**
 * SQLite: the claim with whether the run's owner was removed (a subquery in RETURNING, which sees
 * the updated row); the steps and records are read after it.
 */
export const claimRun = compiledOnce(CLAIM, (db, v) => claimable(db, v).returning(ownerRemoved('executions')));

/**
 * Postgres: the claim with what the worker needs before it can run a step, in one round trip. The
 * steps and records come as JSON and read back with the same codec as plain rows.
 */
export const claimRunWithSteps = compiledOnce(CLAIM, (db, v) =>
  db
    .with('claimed', () => claimable(db, v))
    .selectFrom('claimed')
    .selectAll('claimed')
    .select([
      sql<
        Selectable<StepsTable>[]
      >`(select coalesce(json_agg(s order by s.position, s.id), '[]') from steps s where s.flow_id = claimed.flow_id and claimed.flow_version_id is null)`.as(
        'claimed_steps',
      ),
      sql<
        Selectable<ExecutionStepsTable>[]
      >`(select coalesce(json_agg(r order by r.created_at, r.id), '[]') from execution_steps r where r.execution_id = claimed.id)`.as(
        'claimed_records',
      ),
      ownerRemoved('claimed'),
    ]),
);

const RUN = [
  'id',
  'flow_id',
  'status',
  'test_run',
  'until_step_id',
  'retry_of',
  'flow_version_id',
  'flow_version_number',
  'resume_at',
  'lease_owner',
  'lease_until',
  'created_at',
  'updated_at',
  'finished_at',
  'parent_execution_id',
  'parent_step_key',
  'call_depth',
] as const;
export type RunRow = Record<(typeof RUN)[number], unknown>;
/** The trigger's record a run starts with: not a task. */
const TRIGGER_RECORD = RECORD.filter((column) => column !== 'is_task');
export type TriggerRecordRow = Omit<RecordRow, 'is_task'>;

const START = [...RUN.map((c) => `run_${c}`), ...TRIGGER_RECORD.map((c) => `record_${c}`)];

/** Postgres: the run and its trigger's record in one statement (atomic without a transaction). */
const insertRunWithTrigger = compiledOnce(START, (db, v) =>
  db
    .with('runs', (cte) => cte.insertInto('executions').values(pick(RUN, v, 'run_')))
    .insertInto('execution_steps')
    .values(pick(TRIGGER_RECORD, v, 'record_')),
);
const insertRun = compiledOnce(START, (db, v) => db.insertInto('executions').values(pick(RUN, v, 'run_')));
const insertTriggerRecord = compiledOnce(START, (db, v) =>
  db.insertInto('execution_steps').values(pick(TRIGGER_RECORD, v, 'record_')),
);

/** One new run with its trigger's record: on SQLite, call it inside a transaction. */
export const startRun = async (executor: Executor, run: RunRow, trigger: TriggerRecordRow): Promise<void> => {
  const values = { ...withPrefix('run_', run), ...withPrefix('record_', trigger) };
  if (executor.codec.dialect === 'postgres') {
    await insertRunWithTrigger(executor, values);
    return;
  }
  await insertRun(executor, values);
  await insertTriggerRecord(executor, values);
};
