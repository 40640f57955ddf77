import { type Kysely, type Migration, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Flows become trees: paths (a step whose children are branches), branches and loops hold steps.
 * Positions stay flow-wide and depth-first (Automatisch's order), so a flow's steps by position
 * are the order its editor shows them.
 *
 * A run records a step once per place it ran: its `scope`, the loop iterations it sits in
 * (`<loopStepId>:<index>` joined by `/`, empty at the top level), replaces the step alone in the
 * uniqueness that keeps a finished step from running twice. SQLite cannot drop a table's unique
 * constraint, so there the records move to a new table.
 *
 * A run may call another flow (`parent_execution_id`, `parent_step_key`: one child per calling
 * step occurrence) and wait for signals from outside (`run_signals`: a request on its resume URL,
 * an approval, a form's answers), each taken by one waiting step.
 */
export const flowControl: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .alterTable('steps')
      .addColumn('structural_type', 'text', (c) => c.notNull().defaultTo('single'))
      .execute();
    await db.schema.alterTable('steps').addColumn('parent_step_id', 'text').execute();
    await db.schema.alterTable('steps').addColumn('branch_conditions', t.json).execute();
    await db.schema.createIndex('steps_parent_index').on('steps').column('parent_step_id').execute();

    if (t.postgres) {
      await db.schema
        .alterTable('execution_steps')
        .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('execution_steps').addColumn('parent_step_id', 'text').execute();
      await db.schema.alterTable('execution_steps').addColumn('branch_id', 'text').execute();
      await db.schema.alterTable('execution_steps').addColumn('iteration', 'integer').execute();
      await db.schema.alterTable('execution_steps').dropConstraint('execution_steps_execution_step_unique').execute();
      await db.schema
        .alterTable('execution_steps')
        .addUniqueConstraint('execution_steps_execution_step_scope_unique', ['execution_id', 'step_id', 'scope'])
        .execute();
    } else {
      await db.schema
        .createTable('execution_steps_next')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('execution_id', 'text', (c) => c.notNull().references('executions.id').onDelete('cascade'))
        .addColumn('step_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('data_in', t.json)
        .addColumn('data_out', t.json)
        .addColumn('error_details', t.json)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('is_task', t.bool, (c) => c.notNull().defaultTo(0))
        .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('parent_step_id', 'text')
        .addColumn('branch_id', 'text')
        .addColumn('iteration', 'integer')
        .addUniqueConstraint('execution_steps_execution_step_scope_unique', ['execution_id', 'step_id', 'scope'])
        .execute();
      await sql`insert into execution_steps_next (id, execution_id, step_id, status, position, data_in, data_out, error_details, created_at, is_task)
        select id, execution_id, step_id, status, position, data_in, data_out, error_details, created_at, is_task from execution_steps`.execute(
        db,
      );
      await db.schema.dropTable('execution_steps').execute();
      await db.schema.alterTable('execution_steps_next').renameTo('execution_steps').execute();
      await db.schema
        .createIndex('execution_steps_step_created_index')
        .on('execution_steps')
        .columns(['step_id', 'created_at'])
        .execute();
    }

    await db.schema.alterTable('executions').addColumn('parent_execution_id', 'text').execute();
    await db.schema.alterTable('executions').addColumn('parent_step_key', 'text').execute();
    await db.schema
      .alterTable('executions')
      .addColumn('call_depth', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // Grows each time a signal or a called run's end wakes the run: a step suspending after one came
    // goes on at once instead of sleeping through it.
    await db.schema
      .alterTable('executions')
      .addColumn('wakes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // What the run's resume URL carries, made when a step first asks for it.
    await db.schema.alterTable('executions').addColumn('resume_token', 'text').execute();
    await db.schema
      .createIndex('executions_parent_step_unique')
      .on('executions')
      .columns(['parent_execution_id', 'parent_step_key'])
      .unique()
      .execute();

    await db.schema
      .createTable('run_signals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('execution_id', 'text', (c) => c.notNull().references('executions.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('payload', t.json)
      // The waiting step (`<stepId>@<scope>`) that took the signal; null while nobody has.
      .addColumn('taken_by', 'text')
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('run_signals_execution_index')
      .on('run_signals')
      .columns(['execution_id', 'kind'])
      .execute();
  },
};
