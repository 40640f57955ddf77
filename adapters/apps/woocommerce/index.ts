import { defineApp } from '../sdk/index.js';
import { storeApi, woocommerceAuth } from './auth.js';
import { createCustomer, findCustomer } from './customers.js';
import { icon } from './icon.js';
import { newEvent } from './instant-trigger.js';
import { createOrderNote, updateOrderStatus } from './orders.js';
import { createProduct, listCategories } from './products.js';
import { newCustomers, newOrders, newProducts } from './triggers.js';

export const woocommerce = defineApp({
  key: 'woocommerce',
  name: 'WooCommerce',
  description:
    'Start flows from new orders, customers and products in a WooCommerce store; update orders, add customers and products.',
  icon,
  primaryColor: '#7f54b3',
  categories: ['commerce'],
  version: 1,
  auth: woocommerceAuth,
  triggers: [newOrders, newCustomers, newProducts, newEvent],
  actions: [createCustomer, findCustomer, updateOrderStatus, createOrderNote, createProduct],
  dynamicData: { listCategories },
  http: {
    // Each connection is one self-hosted store.
    connectionBaseUrl: (auth) => (typeof auth.data.storeUrl === 'string' ? storeApi(auth.data.storeUrl) : undefined),
  },
});
