import type { Pagination } from '../sdk/index.js';

/** Stripe's lists: `data` newest first, `has_more`, and the next page after the last id. */
export const stripePages: Pagination = {
  kind: 'cursor',
  items: (data) => data.data,
  next: (data) => (data.has_more ? data.data.at(-1)?.id : null),
  param: 'starting_after',
};
