import { defineApp } from '../sdk/index.js';
import { instanceOf, zendeskAuth } from './auth.js';
import { createTicket } from './create-ticket.js';
import { createUser } from './create-user.js';
import { deleteTicket, deleteUser, findTicket } from './delete-and-find.js';
import {
  listBrands,
  listFirstPageOfTickets,
  listGroups,
  listOrganizations,
  listTicketForms,
  listUsers,
  listViews,
} from './dynamic-data.js';
import { icon } from './icon.js';
import { newTickets } from './new-tickets.js';
import { newUsers } from './new-users.js';
import { updateTicket } from './update-ticket.js';

export const zendesk = defineApp({
  key: 'zendesk',
  name: 'Zendesk',
  description: 'Create, update and find Zendesk tickets and users, and start flows from new ones.',
  icon,
  primaryColor: '#17494d',
  categories: ['support'],
  version: 1,
  auth: zendeskAuth,
  triggers: [newTickets, newUsers],
  actions: [createTicket, createUser, deleteTicket, deleteUser, findTicket, updateTicket],
  dynamicData: {
    listUsers,
    listBrands,
    listFirstPageOfTickets,
    listGroups,
    listOrganizations,
    listTicketForms,
    listViews,
  },
  http: {
    // Every account has its own address: the connection's OAuth client names it.
    connectionBaseUrl: (auth) =>
      auth.client ? `${instanceOf(zendeskAuth.readClient(auth.client))}/api/v2` : undefined,
  },
});
