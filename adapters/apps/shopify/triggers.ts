import { defineTrigger } from '../sdk/index.js';
import { pollCreated } from './poll.js';

const money = 'shopMoney { amount currencyCode }';

export const newOrders = defineTrigger({
  key: 'newOrders',
  name: 'New orders',
  description: 'Starts the flow for each new order.',
  type: 'polling',
  arguments: {},
  run: (ctx) =>
    pollCreated(
      ctx,
      'orders',
      `name email phone displayFinancialStatus displayFulfillmentStatus tags note
       totalPriceSet { ${money} } subtotalPriceSet { ${money} } totalTaxSet { ${money} }
       customer { id email firstName lastName }
       shippingAddress { name address1 address2 city zip province country phone }
       lineItems(first: 50) { nodes { id title sku quantity originalUnitPriceSet { ${money} } } }`,
    ),
});

export const newCustomers = defineTrigger({
  key: 'newCustomers',
  name: 'New customers',
  description: 'Starts the flow for each new customer.',
  type: 'polling',
  arguments: {},
  run: (ctx) =>
    pollCreated(
      ctx,
      'customers',
      'firstName lastName displayName tags note state defaultEmailAddress { emailAddress marketingState } defaultPhoneNumber { phoneNumber }',
    ),
});

export const newProducts = defineTrigger({
  key: 'newProducts',
  name: 'New products',
  description: 'Starts the flow for each new product.',
  type: 'polling',
  arguments: {},
  run: (ctx) =>
    pollCreated(
      ctx,
      'products',
      'title handle status vendor productType tags onlineStoreUrl variants(first: 50) { nodes { id title sku price } }',
    ),
});
