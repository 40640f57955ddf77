import { defineApp } from '../sdk/index.js';
import { addTags } from './add-tags.js';
import { shopApi, shopifyAuth } from './auth.js';
import { createCustomer, findCustomer } from './customers.js';
import { icon } from './icon.js';
import { newEvent } from './instant-trigger.js';
import { listCollections } from './list-collections.js';
import { createProduct } from './products.js';
import { newCustomers, newOrders, newProducts } from './triggers.js';

export const shopify = defineApp({
  key: 'shopify',
  name: 'Shopify',
  description: 'Start flows from new orders, customers and products in a Shopify store; create customers and products.',
  icon,
  primaryColor: '#5e8e3e',
  categories: ['commerce'],
  version: 1,
  auth: shopifyAuth,
  triggers: [newOrders, newCustomers, newProducts, newEvent],
  actions: [createCustomer, findCustomer, createProduct, addTags],
  dynamicData: { listCollections },
  http: {
    // Each connection is one shop, at its own address.
    connectionBaseUrl: (auth) => (typeof auth.data.shopDomain === 'string' ? shopApi(auth.data.shopDomain) : undefined),
  },
});
