import { dynamicDropdown, pollingTrigger, segment } from '../sdk/index.js';

export const newTickets = pollingTrigger({
  key: 'newTickets',
  name: 'New tickets',
  description: 'Starts the flow for each new ticket in a view.',
  arguments: {
    viewId: dynamicDropdown({ label: 'View', required: true, dynamicData: 'listViews', acceptsVariables: true }),
  },
  // A view's tickets, highest id (newest) first.
  request: ({ viewId }) => ({
    path: `/views/${segment(viewId)}/tickets`,
    query: { 'page[size]': 100, sort_by: 'nice_id', sort_order: 'desc' },
  }),
  items: 'tickets',
  id: (ticket: { id: number }) => ticket.id,
});
