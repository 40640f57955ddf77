import type { Repositories } from '../../../ports/repositories.js';
import type { BillingEvent } from '../../domain/billing.js';
import { billingDisabled, type DomainError, invalidInput, webhookRefused } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import type { Billing } from './plan-and-usage.js';

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'logger' | 'payments'> & { readonly billing: Billing };

export interface ReceivedBillingEvent {
  /** The event id was seen before: nothing was applied again. */
  readonly duplicate: boolean;
  /** The user the event was about, when it was about one we know. */
  readonly userId: string | null;
}

/** Whose subscription or invoice it is: the checkout's custom data, else the stored subscription's owner. */
const ownerOf = async (tx: Repositories, event: BillingEvent): Promise<string | null> => {
  const subscriptionId =
    event.kind === 'subscription'
      ? event.subscription.id
      : event.kind === 'invoice'
        ? event.invoice.subscriptionId
        : null;
  const stored = subscriptionId ? await tx.subscriptions.findById(subscriptionId) : null;
  // A subscription stays with the user it was bought for, whatever a later event's custom data says.
  const userId = stored?.userId ?? event.userId;
  return userId && (await tx.users.findById(userId)) ? userId : null;
};

/**
 * The payment provider's webhook: verified by the provider adapter (signature and timestamp), then
 * applied once per event id, in one transaction with the claim of that id, so a delivery that
 * fails half-way is applied whole when the provider sends it again. Events may arrive out of
 * order: a subscription or invoice keeps the state of its latest event.
 */
export const makeReceiveBillingWebhook =
  (deps: Deps) =>
  async (rawBody: string, signature: string | null): Promise<Result<ReceivedBillingEvent, DomainError>> => {
    if (!deps.billing.enabled) return err(billingDisabled());
    const now = deps.clock.now();
    const read = deps.payments.readWebhook(rawBody, { signature }, now);
    if (!read.ok) {
      const { reason, message } = read.error;
      return reason === 'malformed' ? err(invalidInput({ general: [message] })) : err(webhookRefused(message));
    }
    const event = read.value;
    const applied = await deps.uow.run<ReceivedBillingEvent>(async (tx) => {
      if (!(await tx.billingEvents.claim(event, now))) return ok({ duplicate: true, userId: null });
      if (event.kind === 'other') return ok({ duplicate: false, userId: null });
      const userId = await ownerOf(tx, event);
      if (!userId) {
        // Nothing to attach it to; answering with an error would only make the provider resend it.
        deps.logger.warn({ eventId: event.id, type: event.type }, 'billing event for no known user; ignored');
        return ok({ duplicate: false, userId: null });
      }
      if (event.kind === 'subscription') {
        await tx.subscriptions.save({ ...event.subscription, userId }, event.occurredAt, now);
      } else {
        await tx.invoices.save({ ...event.invoice, userId }, event.occurredAt, now);
      }
      return ok({ duplicate: false, userId });
    });
    if (applied.ok && applied.value.userId) deps.billing.forget(applied.value.userId);
    if (applied.ok) {
      deps.logger.info({ eventId: event.id, type: event.type, duplicate: applied.value.duplicate }, 'billing event');
    }
    return applied;
  };
