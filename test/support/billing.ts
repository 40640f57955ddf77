import { createHmac, randomUUID } from 'node:crypto';

export const BILLING_SECRET = 'pdl_ntfset_test_secret_0123456789';
export const STARTER = { id: 'pri_starter', name: 'Starter', quota: 3, price: '€10 / month' };
export const PRO = { id: 'pri_pro', name: 'Pro', quota: 10_000, price: '€50 / month' };

/** An instance with billing on: two plans, and `freeQuota` tasks for users without a subscription. */
export const billingEnv = (freeQuota = 2): Record<string, string> => ({
  BILLING_ENABLED: 'true',
  BILLING_WEBHOOK_SECRET: BILLING_SECRET,
  BILLING_PLANS: JSON.stringify([STARTER, PRO]),
  BILLING_FREE_QUOTA: String(freeQuota),
});

/** A `Paddle-Signature` header for `body`, as Paddle makes it: HMAC-SHA256 of "<ts>:<body>". */
export const paddleSignature = (body: string, { at = new Date(), secret = BILLING_SECRET } = {}) => {
  const ts = Math.floor(at.getTime() / 1000);
  const h1 = createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex');
  return `ts=${ts};h1=${h1}`;
};

export interface PaddleEvent {
  readonly event_id: string;
  readonly event_type: string;
  readonly occurred_at: string;
  readonly notification_id: string;
  readonly data: Record<string, unknown>;
}

const event = (type: string, data: Record<string, unknown>, occurredAt: Date): PaddleEvent => ({
  event_id: `evt_${randomUUID().replaceAll('-', '')}`,
  event_type: type,
  occurred_at: occurredAt.toISOString(),
  notification_id: `ntf_${randomUUID().replaceAll('-', '')}`,
  data,
});

/** A subscription event in Paddle Billing's shape (the fields Conveyor reads, and some it does not). */
export const subscriptionEvent = (
  type: string,
  s: {
    id: string;
    userId?: string;
    status: string;
    priceId: string;
    period?: { start: Date; end: Date } | null;
    occurredAt?: Date;
  },
): PaddleEvent =>
  event(
    type,
    {
      id: s.id,
      status: s.status,
      customer_id: 'ctm_01test',
      address_id: 'add_01test',
      currency_code: 'EUR',
      custom_data: s.userId ? { userId: s.userId } : null,
      items: [{ status: 'active', quantity: 1, price: { id: s.priceId, product_id: 'pro_01test' } }],
      current_billing_period: s.period
        ? { starts_at: s.period.start.toISOString(), ends_at: s.period.end.toISOString() }
        : null,
      next_billed_at: s.period ? s.period.end.toISOString() : null,
      management_urls: {
        update_payment_method: `https://buyer.paddle.test/subscriptions/${s.id}/update`,
        cancel: `https://buyer.paddle.test/subscriptions/${s.id}/cancel`,
      },
      scheduled_change: null,
    },
    s.occurredAt ?? new Date(),
  );

/** A transaction event (an invoice once billed), in Paddle Billing's shape. */
export const transactionEvent = (
  type: string,
  t: {
    id: string;
    userId?: string;
    subscriptionId: string | null;
    status: string;
    total: string;
    number?: string;
    period?: { start: Date; end: Date };
    occurredAt?: Date;
  },
): PaddleEvent =>
  event(
    type,
    {
      id: t.id,
      status: t.status,
      customer_id: 'ctm_01test',
      subscription_id: t.subscriptionId,
      invoice_number: t.number ?? null,
      currency_code: 'EUR',
      custom_data: t.userId ? { userId: t.userId } : null,
      billed_at: (t.occurredAt ?? new Date()).toISOString(),
      billing_period: t.period
        ? { starts_at: t.period.start.toISOString(), ends_at: t.period.end.toISOString() }
        : null,
      details: { totals: { subtotal: t.total, tax: '0', total: t.total, grand_total: t.total } },
    },
    t.occurredAt ?? new Date(),
  );
