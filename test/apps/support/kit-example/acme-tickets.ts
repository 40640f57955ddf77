import * as kit from '../../../../adapters/apps/sdk/index.js';

const auth = kit.fieldsAuth({
  fields: { apiToken: kit.text({ label: 'API token', required: true, secret: true }) },
  headers: (data) => kit.bearerHeader(data.apiToken),
  verify: async (ctx) => ({ screenName: (await ctx.http.request<{ email: string }>({ path: '/me' })).data.email }),
});

type Queue = { id: string; name: string };
const byCursor: kit.Pagination = { kind: 'cursor', items: 'queues', next: 'next_cursor', param: 'cursor' };
const queue = kit.dynamicDropdown({ label: 'Queue', required: true, dynamicData: 'listQueues' });

const createTicket = kit.restAction({
  key: 'createTicket',
  name: 'Create ticket',
  description: 'Opens a ticket in a queue.',
  arguments: { queue, subject: kit.text({ label: 'Subject', required: true, acceptsVariables: true }) },
  idempotencyHeader: 'Idempotency-Key',
  request: (p) => ({ method: 'POST', path: `/queues/${kit.segment(p.queue)}/tickets`, body: { subject: p.subject } }),
});

const newTicket = kit.pollingTrigger({
  key: 'newTicket',
  name: 'New ticket',
  description: 'Starts a run for each new ticket of a queue.',
  arguments: { queue },
  request: (p) => ({ path: `/queues/${kit.segment(p.queue)}/tickets`, query: { sort: '-created' } }),
  items: 'tickets',
  id: (ticket) => ticket.id,
  since: { param: 'created_after', value: (ticket) => ticket.created_at },
});

export const acmeTickets = kit.defineApp({
  key: 'acme-tickets',
  name: 'Acme Tickets',
  description: 'Tickets in Acme queues.',
  icon: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#0f766e"/></svg>',
  primaryColor: '#0f766e',
  categories: ['support'],
  version: 1,
  auth,
  triggers: [newTicket],
  actions: [createTicket],
  dynamicData: {
    listQueues: async (ctx) =>
      (await kit.paginate<Queue>(ctx.http, { path: '/queues' }, byCursor)).map((q) => ({ name: q.name, value: q.id })),
  },
  http: { baseUrl: 'https://api.acme.example/v2' },
});
