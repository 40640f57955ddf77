import { type Kysely, type Migration, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * The local job queue (adapters/queue/local) and the cron schedules of both queue adapters.
 * Instants are epoch milliseconds in int8 columns rather than timestamps: claims and leases
 * compare and add to them in SQL, and integers do that the same way on both dialects.
 */
export const jobQueue: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('payload', t.json, (c) => c.notNull())
      // created (never delivered) | retry (waits after a failure) | active (leased) | failed (gave up)
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      // When the job may next be claimed: its start for a waiting job, its lease's end for an
      // active one, null for a failed one. One column makes the claim one indexed range scan.
      .addColumn('available_at_ms', t.int8)
      .addColumn('singleton_key', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at_ms', t.int8, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_claim_index').on('jobs').columns(['name', 'available_at_ms']).execute();
    // The database, not a read-then-insert, keeps a singleton key to one job awaiting delivery.
    await db.schema
      .createIndex('jobs_singleton_unique')
      .on('jobs')
      .columns(['name', 'singleton_key'])
      .unique()
      .where(sql.ref('state'), '=', 'created')
      .where(sql.ref('singleton_key'), 'is not', null)
      .execute();

    await db.schema
      .createTable('job_schedules')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('cron', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('payload', t.json, (c) => c.notNull())
      .addColumn('singleton_key', 'text')
      .addColumn('next_run_at_ms', t.int8, (c) => c.notNull())
      .addColumn('updated_at_ms', t.int8, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('job_schedules_next_run_index').on('job_schedules').column('next_run_at_ms').execute();
  },
};
