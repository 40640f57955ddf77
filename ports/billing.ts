import type { BillingEvent, Invoice, Period, Subscription } from '../core/domain/billing.js';
import type { Page, PageRequest } from '../core/domain/page.js';
import type { Result } from '../core/domain/result.js';

/**
 * Tasks are written by the runs' own repository as runs finish (see ExecutionRepository); this
 * reads them back.
 */
export interface UsageRepository {
  /** Tasks of the user's runs that finished within the period. */
  countTasks(userId: string, period: Period): Promise<number>;
}

export interface SubscriptionRepository {
  /**
   * Stores the subscription as the event at `eventAt` shows it, unless a later event is already
   * stored (providers do not promise order). False when it was older and changed nothing.
   */
  save(subscription: Omit<Subscription, 'createdAt' | 'updatedAt'>, eventAt: Date, now: Date): Promise<boolean>;
  findById(id: string): Promise<Subscription | null>;
  /** The user's subscriptions, most recently changed first. */
  listByUser(userId: string): Promise<Subscription[]>;
}

export interface InvoiceRepository {
  /** Stores the invoice as the event at `eventAt` shows it, unless a later event is already stored. */
  save(invoice: Omit<Invoice, 'createdAt' | 'updatedAt'>, eventAt: Date, now: Date): Promise<boolean>;
  /** Newest first. */
  listByUser(userId: string, page: PageRequest): Promise<Page<Invoice>>;
}

export interface BillingEventRepository {
  /** Takes the event id; false when it was taken before (the event was applied already). */
  claim(event: { readonly id: string; readonly type: string; readonly occurredAt: Date }, now: Date): Promise<boolean>;
}

export type WebhookRefusal =
  /** No signature, or none that the secret makes. */
  | 'signature'
  /** Signed too long ago (or in the future): a replay. */
  | 'timestamp'
  /** Signed, but not an event this reader understands. */
  | 'malformed';

/** The payment provider's side: its signed webhooks, read into events. */
export interface PaymentProvider {
  readWebhook(
    rawBody: string,
    headers: { readonly signature: string | null },
    now: Date,
  ): Result<BillingEvent, { readonly reason: WebhookRefusal; readonly message: string }>;
}
