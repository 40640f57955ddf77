import { dynamicDropdown, number, restAction } from '../sdk/index.js';
import { stripeForm } from './form.js';

export const createPaymentLink = restAction({
  key: 'createPaymentLink',
  name: 'Create payment link',
  description: 'Creates a payment link for a price; the output has its shareable `url`.',
  arguments: {
    price: dynamicDropdown({ label: 'Price', required: true, dynamicData: 'listPrices', acceptsVariables: true }),
    quantity: number({ label: 'Quantity', integer: true, min: 1, default: 1, acceptsVariables: true }),
  },
  idempotencyHeader: 'Idempotency-Key',
  request: (p) => ({
    method: 'POST',
    path: '/v1/payment_links',
    body: stripeForm({ line_items: [{ price: p.price, quantity: p.quantity }] }),
  }),
});
