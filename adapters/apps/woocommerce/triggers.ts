import { pollingTrigger } from '../sdk/index.js';
import { wpPages } from './pages.js';

interface Created {
  readonly id: number;
  /** UTC, without a zone: `2026-11-01T12:00:00`, so that texts compare as times do. */
  readonly date_created_gmt: string;
}

/**
 * Orders or products, newest first, asking only for those created after the newest one the poll
 * before last saw (`after`, read as UTC thanks to `dates_are_gmt`), every page.
 */
const newRecords = (key: string, name: string, description: string, path: string) =>
  pollingTrigger({
    key,
    name,
    description,
    arguments: {},
    request: () => ({ path, query: { orderby: 'date', order: 'desc', per_page: 100, dates_are_gmt: true } }),
    items: '',
    id: (record: Created) => record.id,
    pagination: wpPages,
    limits: { maxItems: 500 },
    since: { param: 'after', value: (record: Created) => record.date_created_gmt },
  });

export const newOrders = newRecords('newOrders', 'New orders', 'Starts the flow for each new order.', '/orders');

export const newProducts = newRecords(
  'newProducts',
  'New products',
  'Starts the flow for each new product.',
  '/products',
);

export const newCustomers = pollingTrigger({
  key: 'newCustomers',
  name: 'New customers',
  description: 'Starts the flow for each new customer account.',
  arguments: {},
  // The customers list filters by no date: the 100 newest registrations each poll.
  request: () => ({ path: '/customers', query: { orderby: 'registered_date', order: 'desc', per_page: 100 } }),
  items: '',
  id: (customer: { id: number }) => customer.id,
});
