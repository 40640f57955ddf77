import { dropdown, keyValueList, matches, number, restAction, text } from '../sdk/index.js';
import { metadataOf, stripeForm } from './form.js';

export const createRefund = restAction({
  key: 'createRefund',
  name: 'Create refund',
  description: 'Refunds a payment intent or a charge, in full or in part, and returns the refund.',
  arguments: {
    payment: text({
      label: 'Payment',
      required: true,
      placeholder: 'pi_... or ch_...',
      description: 'The ID of the payment intent, or of the charge, to refund.',
      acceptsVariables: true,
      check: matches(/^(pi|ch|py)_\S+$/, 'must be a payment intent (pi_...) or charge (ch_..., py_...) ID.'),
    }),
    amount: number({
      label: 'Amount',
      integer: true,
      min: 1,
      description: "In the currency's smallest unit (cents); the whole remaining amount when empty.",
      acceptsVariables: true,
    }),
    reason: dropdown({
      label: 'Reason',
      options: [
        { label: 'Requested by customer', value: 'requested_by_customer' },
        { label: 'Duplicate', value: 'duplicate' },
        { label: 'Fraudulent', value: 'fraudulent' },
      ],
    }),
    metadata: keyValueList({ label: 'Metadata', acceptsVariables: true }),
  },
  idempotencyHeader: 'Idempotency-Key',
  request: (p) => ({
    method: 'POST',
    path: '/v1/refunds',
    body: stripeForm({
      // Stripe takes one or the other; the ID's prefix says which it is.
      ...(p.payment.startsWith('pi_') ? { payment_intent: p.payment } : { charge: p.payment }),
      amount: p.amount,
      reason: p.reason,
      metadata: metadataOf(p.metadata),
    }),
  }),
});
