import { dynamicDropdown, restAction, segment, text } from '../sdk/index.js';
import { ticketArgument } from './arguments.js';

export const deleteTicket = restAction({
  key: 'deleteTicket',
  name: 'Delete ticket',
  description: 'Deletes a ticket (it can be restored from deleted tickets for 30 days).',
  arguments: { ticketId: ticketArgument('The ticket to delete.') },
  request: ({ ticketId }) => ({ method: 'DELETE', path: `/tickets/${segment(ticketId)}` }),
  // Zendesk answers 204 with no body.
  output: (_data, { ticketId }) => ({ ticketId, deleted: true }),
});

export const deleteUser = restAction({
  key: 'deleteUser',
  name: 'Delete user',
  description: 'Deletes a user; Zendesk answers the user as deleted.',
  arguments: {
    userId: dynamicDropdown({ label: 'User', required: true, dynamicData: 'listUsers', acceptsVariables: true }),
  },
  request: ({ userId }) => ({ method: 'DELETE', path: `/users/${segment(userId)}` }),
});

export const findTicket = restAction({
  key: 'findTicket',
  name: 'Find ticket',
  description: 'Finds the newest ticket a search matches.',
  arguments: {
    query: text({
      label: 'Query',
      required: true,
      description: 'A Zendesk search, as `status:open requester:ann@example.com`.',
      acceptsVariables: true,
    }),
  },
  request: ({ query }) => ({
    path: '/search',
    query: { query: `type:ticket ${query}`, sort_by: 'created_at', sort_order: 'desc' },
  }),
  // The newest match, or an empty object when none matches.
  output: (data: { results?: unknown[] }) => data.results?.[0] ?? {},
});
