import { createHmac, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { type BillingEvent, SUBSCRIPTION_STATUSES } from '../../core/domain/billing.js';
import { err, ok } from '../../core/domain/result.js';
import type { PaymentProvider } from '../../ports/billing.js';

/**
 * Paddle Billing's webhooks (developer.paddle.com, "Verify webhook signatures"): the
 * `Paddle-Signature` header is `ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">`, with
 * one h1 per active secret while a secret is being rotated.
 */
export interface PaddleWebhookOptions {
  /** The notification destination's secret key. */
  readonly secret: string;
  /** How far the signature's time may be from ours, either way, before it counts as a replay. */
  readonly toleranceMs: number;
}

const isoTime = v.pipe(
  v.string(),
  v.isoTimestamp(),
  v.transform((s) => new Date(s)),
);
const nullableTime = v.nullish(isoTime, null);
const period = v.nullish(v.object({ starts_at: isoTime, ends_at: isoTime }), null);
const customData = v.nullish(v.record(v.string(), v.unknown()), null);

const Envelope = v.object({
  event_id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
  event_type: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
  occurred_at: isoTime,
  data: v.record(v.string(), v.unknown()),
});

const SubscriptionData = v.object({
  id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
  status: v.picklist(SUBSCRIPTION_STATUSES),
  custom_data: customData,
  items: v.pipe(
    v.array(v.object({ price: v.object({ id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)) }) })),
    v.minLength(1),
  ),
  current_billing_period: period,
  next_billed_at: nullableTime,
  management_urls: v.nullish(
    v.object({ update_payment_method: v.nullish(v.string(), null), cancel: v.nullish(v.string(), null) }),
    null,
  ),
});

const TransactionData = v.object({
  id: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
  status: v.pipe(v.string(), v.nonEmpty(), v.maxLength(50)),
  subscription_id: v.nullish(v.string(), null),
  invoice_number: v.nullish(v.string(), null),
  custom_data: customData,
  currency_code: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  billed_at: nullableTime,
  billing_period: period,
  details: v.object({ totals: v.object({ grand_total: v.pipe(v.string(), v.regex(/^-?\d{1,30}$/)) }) }),
});

/** A transaction becomes an invoice once billed; drafts and open checkouts are not invoices yet. */
const NOT_INVOICES = new Set(['draft', 'ready']);

const userIdOf = (custom: Record<string, unknown> | null): string | null => {
  const id = custom?.userId;
  return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : null;
};

const toPeriod = (p: { starts_at: Date; ends_at: Date } | null) => (p ? { start: p.starts_at, end: p.ends_at } : null);

/** The h1 values and the time of a `Paddle-Signature` header; null when it is not one. */
const parseSignature = (header: string): { ts: number; h1: string[] } | null => {
  let ts: number | null = null;
  const h1: string[] = [];
  for (const part of header.split(';')) {
    const [key, value] = part.split('=', 2).map((s) => s.trim());
    if (key === 'ts' && value && /^\d{1,12}$/.test(value)) ts = Number(value);
    else if (key === 'h1' && value && /^[0-9a-f]{64}$/i.test(value)) h1.push(value.toLowerCase());
  }
  return ts === null || h1.length === 0 ? null : { ts, h1 };
};

export const createPaddleWebhooks = (options: PaddleWebhookOptions): PaymentProvider => ({
  readWebhook(rawBody, { signature }, now) {
    const parsed = signature ? parseSignature(signature) : null;
    if (!parsed) return err({ reason: 'signature', message: 'The Paddle-Signature header is missing or malformed.' });
    const expected = createHmac('sha256', options.secret).update(`${parsed.ts}:${rawBody}`).digest();
    const matches = parsed.h1.some((h) => timingSafeEqual(Buffer.from(h, 'hex'), expected));
    if (!matches) return err({ reason: 'signature', message: 'The signature does not match.' });
    if (Math.abs(now.getTime() - parsed.ts * 1000) > options.toleranceMs) {
      return err({ reason: 'timestamp', message: 'The signature is too old or from the future.' });
    }

    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return err({ reason: 'malformed', message: 'The body is not JSON.' });
    }
    const envelope = v.safeParse(Envelope, body);
    if (!envelope.success) return err({ reason: 'malformed', message: 'The body is not a Paddle event.' });
    const { event_id: id, event_type: type, occurred_at: occurredAt, data } = envelope.output;
    const base = { id, type, occurredAt };

    if (type.startsWith('subscription.')) {
      const read = v.safeParse(SubscriptionData, data);
      if (!read.success) return err({ reason: 'malformed', message: `The ${type} event's subscription is not valid.` });
      const s = read.output;
      const event: BillingEvent = {
        ...base,
        kind: 'subscription',
        userId: userIdOf(s.custom_data),
        subscription: {
          id: s.id,
          planId: s.items[0]?.price.id ?? '',
          status: s.status,
          currentPeriod: toPeriod(s.current_billing_period),
          nextBillAt: s.next_billed_at,
          cancelUrl: s.management_urls?.cancel ?? null,
          updateUrl: s.management_urls?.update_payment_method ?? null,
        },
      };
      return ok(event);
    }

    if (type.startsWith('transaction.')) {
      const read = v.safeParse(TransactionData, data);
      if (!read.success) return err({ reason: 'malformed', message: `The ${type} event's transaction is not valid.` });
      const t = read.output;
      if (NOT_INVOICES.has(t.status)) return ok({ ...base, kind: 'other', userId: null });
      return ok({
        ...base,
        kind: 'invoice',
        userId: userIdOf(t.custom_data),
        invoice: {
          id: t.id,
          subscriptionId: t.subscription_id,
          status: t.status,
          number: t.invoice_number,
          total: t.details.totals.grand_total,
          currency: t.currency_code,
          billedAt: t.billed_at,
          period: toPeriod(t.billing_period),
        },
      });
    }

    return ok({ ...base, kind: 'other', userId: null });
  },
});
