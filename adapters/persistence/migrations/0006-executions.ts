import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/** Runs of flows step by step, flows' key/value memory, and the items polling triggers have seen. */
export const executions: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('executions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('flow_id', 'text', (c) => c.notNull().references('flows.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('test_run', t.bool, (c) => c.notNull())
      .addColumn('until_step_id', 'text')
      .addColumn('retry_of', 'text')
      .addColumn('resume_at', t.timestamp)
      .addColumn('step_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', t.timestamp)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addColumn('finished_at', t.timestamp)
      .execute();
    await db.schema
      .createIndex('executions_flow_created_index')
      .on('executions')
      .columns(['flow_id', 'created_at'])
      .execute();
    await db.schema.createIndex('executions_created_index').on('executions').column('created_at').execute();
    // The reaper's and the retention's scans look only at unfinished, or finished, runs.
    await db.schema
      .createIndex('executions_status_index')
      .on('executions')
      .columns(['status', 'lease_until'])
      .execute();
    await db.schema.createIndex('executions_finished_index').on('executions').column('finished_at').execute();

    await db.schema
      .createTable('execution_steps')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('execution_id', 'text', (c) => c.notNull().references('executions.id').onDelete('cascade'))
      // No reference: the history of a run outlives a step deleted later.
      .addColumn('step_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      // The step's position when it ran: the order of a run's records, whatever their timestamps.
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('data_in', t.json)
      .addColumn('data_out', t.json)
      .addColumn('error_details', t.json)
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      // A step is recorded once per run: the guarantee that no finished step runs twice.
      .addUniqueConstraint('execution_steps_execution_step_unique', ['execution_id', 'step_id'])
      .execute();
    await db.schema
      .createIndex('execution_steps_step_created_index')
      .on('execution_steps')
      .columns(['step_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('flow_store')
      .addColumn('flow_id', 'text', (c) => c.notNull().references('flows.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', t.json)
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('flow_store_pk', ['flow_id', 'key'])
      .execute();

    await db.schema
      .createTable('seen_items')
      .addColumn('flow_id', 'text', (c) => c.notNull().references('flows.id').onDelete('cascade'))
      .addColumn('internal_id', 'text', (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('seen_items_pk', ['flow_id', 'internal_id'])
      .execute();
  },
};
