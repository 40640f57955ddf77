import { boolean, dropdown, restAction, segment, text } from '../sdk/index.js';

const orderId = text({ label: 'Order ID', required: true, acceptsVariables: true });

export const updateOrderStatus = restAction({
  key: 'updateOrderStatus',
  name: 'Update order status',
  description: 'Sets the status of an order and returns the order.',
  arguments: {
    orderId,
    status: dropdown({
      label: 'Status',
      required: true,
      options: [
        { label: 'Pending payment', value: 'pending' },
        { label: 'Processing', value: 'processing' },
        { label: 'On hold', value: 'on-hold' },
        { label: 'Completed', value: 'completed' },
        { label: 'Cancelled', value: 'cancelled' },
        { label: 'Refunded', value: 'refunded' },
        { label: 'Failed', value: 'failed' },
      ],
    }),
  },
  request: (p) => ({ method: 'PUT', path: `/orders/${segment(p.orderId)}`, body: { status: p.status } }),
});

export const createOrderNote = restAction({
  key: 'createOrderNote',
  name: 'Add order note',
  description: 'Adds a note to an order, private or for the customer (who is e-mailed it).',
  arguments: {
    orderId,
    note: text({ label: 'Note', required: true, acceptsVariables: true }),
    customerNote: boolean({ label: 'Note to the customer', default: false }),
  },
  request: (p) => ({
    method: 'POST',
    path: `/orders/${segment(p.orderId)}/notes`,
    body: { note: p.note, customer_note: p.customerNote },
  }),
});
