import { pollingTrigger } from '../sdk/index.js';
import { stripePages } from './pages.js';

/**
 * A Stripe list, newest first, asking only for what was created since the newest object the
 * poll before last saw (`created[gte]`), every page of it.
 */
const newObjects = (key: string, name: string, description: string, path: string, query = {}) =>
  pollingTrigger({
    key,
    name,
    description,
    arguments: {},
    request: () => ({ path, query: { ...query, limit: 100 } }),
    items: 'data',
    id: (entry: { id: string }) => entry.id,
    pagination: stripePages,
    limits: { maxItems: 500 },
    since: { param: 'created[gte]', value: (entry: { created: number }) => entry.created },
  });

export const newBalanceTransactions = newObjects(
  'newBalanceTransactions',
  'New balance transactions',
  'Starts the flow for each new balance transaction: a charge, refund, payout, fee or adjustment.',
  '/v1/balance_transactions',
);

export const newPayouts = newObjects(
  'newPayouts',
  'New payouts',
  'Starts the flow for each new payout from Stripe to a bank account or debit card.',
  '/v1/payouts',
);

export const newCustomers = newObjects(
  'newCustomers',
  'New customers',
  'Starts the flow for each new customer.',
  '/v1/customers',
);

export const newCharges = newObjects(
  'newCharges',
  'New charges',
  'Starts the flow for each new charge (a payment attempt: see its `status`, `paid` and `amount`).',
  '/v1/charges',
);
