/** The events most flows start from; `*` is every event. Stripe documents the full list. */
const EVENT_TYPES = [
  ['*', 'All events'],
  ['payment_intent.succeeded', 'Payment succeeded'],
  ['payment_intent.payment_failed', 'Payment failed'],
  ['payment_intent.canceled', 'Payment canceled'],
  ['charge.succeeded', 'Charge succeeded'],
  ['charge.failed', 'Charge failed'],
  ['charge.refunded', 'Charge refunded'],
  ['charge.dispute.created', 'Dispute opened'],
  ['checkout.session.completed', 'Checkout completed'],
  ['customer.created', 'Customer created'],
  ['customer.updated', 'Customer updated'],
  ['customer.deleted', 'Customer deleted'],
  ['customer.subscription.created', 'Subscription created'],
  ['customer.subscription.updated', 'Subscription updated'],
  ['customer.subscription.deleted', 'Subscription ended'],
  ['invoice.created', 'Invoice created'],
  ['invoice.paid', 'Invoice paid'],
  ['invoice.payment_failed', 'Invoice payment failed'],
  ['payout.paid', 'Payout paid'],
  ['payout.failed', 'Payout failed'],
  ['refund.created', 'Refund created'],
] as const;

/** Needs no request: the list is Stripe's, fixed here. */
export const listEventTypes = async () => EVENT_TYPES.map(([value, name]) => ({ name: `${name} (${value})`, value }));
