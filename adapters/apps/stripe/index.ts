import { defineApp } from '../sdk/index.js';
import { stripeAuth } from './auth.js';
import { createPaymentLink } from './create-payment-link.js';
import { createRefund } from './create-refund.js';
import { createCustomer, findCustomer } from './customers.js';
import { listEventTypes } from './event-types.js';
import { icon } from './icon.js';
import { newEvent, paymentIntentSucceeded } from './instant-triggers.js';
import { listPrices } from './list-prices.js';
import { newBalanceTransactions, newCharges, newCustomers, newPayouts } from './triggers.js';

export const stripe = defineApp({
  key: 'stripe',
  name: 'Stripe',
  description:
    'Start flows from payments, payouts and customers in Stripe; create customers, refunds and payment links.',
  icon,
  primaryColor: '#635bff',
  categories: ['commerce'],
  version: 1,
  auth: stripeAuth,
  triggers: [newBalanceTransactions, newPayouts, paymentIntentSucceeded, newEvent, newCharges, newCustomers],
  actions: [createCustomer, findCustomer, createRefund, createPaymentLink],
  dynamicData: { listPrices, listEventTypes },
  http: { baseUrl: 'https://api.stripe.com' },
});
