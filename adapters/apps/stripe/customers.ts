import { keyValueList, restAction, text } from '../sdk/index.js';
import { metadataOf, stripeForm } from './form.js';

export const createCustomer = restAction({
  key: 'createCustomer',
  name: 'Create customer',
  description: 'Creates a customer and returns it.',
  arguments: {
    email: text({ label: 'Email', acceptsVariables: true }),
    name: text({ label: 'Name', acceptsVariables: true }),
    phone: text({ label: 'Phone', acceptsVariables: true }),
    description: text({ label: 'Description', acceptsVariables: true }),
    metadata: keyValueList({ label: 'Metadata', acceptsVariables: true }),
  },
  idempotencyHeader: 'Idempotency-Key',
  request: (p) => ({
    method: 'POST',
    path: '/v1/customers',
    body: stripeForm({
      email: p.email,
      name: p.name,
      phone: p.phone,
      description: p.description,
      metadata: metadataOf(p.metadata),
    }),
  }),
});

interface CustomerList {
  readonly data: readonly { readonly id: string }[];
}

export const findCustomer = restAction({
  key: 'findCustomer',
  name: 'Find customer',
  description: 'Finds the most recent customer with an email address (exact, case-sensitive match).',
  arguments: {
    email: text({ label: 'Email', required: true, acceptsVariables: true }),
  },
  request: (p) => ({ path: '/v1/customers', query: { email: p.email, limit: 1 } }),
  // `found` lets a later filter step branch on it; the customer's fields are absent when none matched.
  output: (data: CustomerList) => {
    const customer = data.data[0];
    return customer ? { found: true, ...customer } : { found: false };
  },
});
