import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Plan and usage, and the payment provider's view of subscriptions and invoices.
 *
 * A task is an action step the engine ran: `execution_steps.is_task` tells it apart from a trigger's
 * record and from the records a retry copies from the run it retries. When a run that is not a test
 * finishes, its tasks are written once to `usage_tasks` for the flow's owner; that row outlives the
 * run's pruning and the flow's deletion, so usage cannot be lowered by deleting history.
 */
export const billing: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .alterTable('execution_steps')
      .addColumn('is_task', t.bool, (c) => c.notNull().defaultTo(t.postgres ? false : 0))
      .execute();

    await db.schema
      .createTable('usage_tasks')
      .addColumn('execution_id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('tasks', 'integer', (c) => c.notNull())
      .addColumn('counted_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('usage_tasks_user_counted_index')
      .on('usage_tasks')
      .columns(['user_id', 'counted_at'])
      .execute();

    await db.schema
      .createTable('subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('plan_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('current_period_start', t.timestamp)
      .addColumn('current_period_end', t.timestamp)
      .addColumn('next_bill_at', t.timestamp)
      .addColumn('cancel_url', 'text')
      .addColumn('update_url', 'text')
      // When the event this state came from happened: an older event arriving late changes nothing.
      .addColumn('event_at', t.timestamp, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('subscriptions_user_index').on('subscriptions').column('user_id').execute();

    await db.schema
      .createTable('invoices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('subscription_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('number', 'text')
      // In the currency's smallest unit, as the provider sends it (a decimal string).
      .addColumn('total', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('billed_at', t.timestamp)
      .addColumn('period_start', t.timestamp)
      .addColumn('period_end', t.timestamp)
      .addColumn('event_at', t.timestamp, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('invoices_user_created_index')
      .on('invoices')
      .columns(['user_id', 'created_at'])
      .execute();

    // Each provider event is applied once: its id is claimed in the transaction that applies it.
    await db.schema
      .createTable('billing_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('occurred_at', t.timestamp, (c) => c.notNull())
      .addColumn('received_at', t.timestamp, (c) => c.notNull())
      .execute();
  },
};
