import type { Selectable } from 'kysely';
import type { Invoice, Period, Subscription, SubscriptionStatus } from '../../../core/domain/billing.js';
import type {
  BillingEventRepository,
  InvoiceRepository,
  SubscriptionRepository,
  UsageRepository,
} from '../../../ports/billing.js';
import type { Codec } from '../codec.js';
import type { InvoicesTable, SubscriptionsTable } from '../schema.js';
import type { Executor } from './executor.js';

const periodFrom = (codec: Codec, start: Date | string | null, end: Date | string | null): Period | null =>
  start === null || end === null ? null : { start: codec.readTimestamp(start), end: codec.readTimestamp(end) };
const timeOrNull = (codec: Codec, value: Date | null) => (value === null ? null : codec.timestamp(value));

export const createUsageRepository = ({ db, codec }: Executor): UsageRepository => ({
  async countTasks(userId, period) {
    const { tasks } = await db
      .selectFrom('usage_tasks')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('tasks'), eb.lit(0)).as('tasks'))
      .where('user_id', '=', userId)
      .where('counted_at', '>=', codec.timestamp(period.start))
      .where('counted_at', '<', codec.timestamp(period.end))
      .executeTakeFirstOrThrow();
    return codec.readInt(tasks);
  },
});

export const createSubscriptionRepository = ({ db, codec }: Executor): SubscriptionRepository => {
  const toSubscription = (row: Selectable<SubscriptionsTable>): Subscription => ({
    id: row.id,
    userId: row.user_id,
    planId: row.plan_id,
    status: row.status as SubscriptionStatus,
    currentPeriod: periodFrom(codec, row.current_period_start, row.current_period_end),
    nextBillAt: row.next_bill_at === null ? null : codec.readTimestamp(row.next_bill_at),
    cancelUrl: row.cancel_url,
    updateUrl: row.update_url,
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });
  return {
    async save(subscription, eventAt, now) {
      const state = {
        plan_id: subscription.planId,
        status: subscription.status,
        current_period_start: timeOrNull(codec, subscription.currentPeriod?.start ?? null),
        current_period_end: timeOrNull(codec, subscription.currentPeriod?.end ?? null),
        next_bill_at: timeOrNull(codec, subscription.nextBillAt),
        cancel_url: subscription.cancelUrl,
        update_url: subscription.updateUrl,
        event_at: codec.timestamp(eventAt),
        updated_at: codec.timestamp(now),
      };
      const saved = await db
        .insertInto('subscriptions')
        .values({ id: subscription.id, user_id: subscription.userId, created_at: codec.timestamp(now), ...state })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet(state).where('subscriptions.event_at', '<=', codec.timestamp(eventAt)),
        )
        .returning('id')
        .execute();
      return saved.length > 0;
    },

    async findById(id) {
      const row = await db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toSubscription(row) : null;
    },

    async listByUser(userId) {
      const rows = await db
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('event_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toSubscription);
    },
  };
};

export const createInvoiceRepository = ({ db, codec }: Executor): InvoiceRepository => {
  const toInvoice = (row: Selectable<InvoicesTable>): Invoice => ({
    id: row.id,
    userId: row.user_id,
    subscriptionId: row.subscription_id,
    status: row.status,
    number: row.number,
    total: row.total,
    currency: row.currency,
    billedAt: row.billed_at === null ? null : codec.readTimestamp(row.billed_at),
    period: periodFrom(codec, row.period_start, row.period_end),
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });
  return {
    async save(invoice, eventAt, now) {
      const state = {
        subscription_id: invoice.subscriptionId,
        status: invoice.status,
        number: invoice.number,
        total: invoice.total,
        currency: invoice.currency,
        billed_at: timeOrNull(codec, invoice.billedAt),
        period_start: timeOrNull(codec, invoice.period?.start ?? null),
        period_end: timeOrNull(codec, invoice.period?.end ?? null),
        event_at: codec.timestamp(eventAt),
        updated_at: codec.timestamp(now),
      };
      const saved = await db
        .insertInto('invoices')
        .values({ id: invoice.id, user_id: invoice.userId, created_at: codec.timestamp(now), ...state })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet(state).where('invoices.event_at', '<=', codec.timestamp(eventAt)),
        )
        .returning('id')
        .execute();
      return saved.length > 0;
    },

    async listByUser(userId, { page, perPage }) {
      const { count } = await db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('invoices')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { items: rows.map(toInvoice), total: codec.readInt(count as string | number), page, perPage };
    },
  };
};

export const createBillingEventRepository = ({ db, codec }: Executor): BillingEventRepository => ({
  async claim(event, now) {
    const taken = await db
      .insertInto('billing_events')
      .values({
        id: event.id,
        type: event.type,
        occurred_at: codec.timestamp(event.occurredAt),
        received_at: codec.timestamp(now),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    return taken.length > 0;
  },
});
