import { defineTrigger } from '../sdk/index.js';
import { pollNewObjects } from './poll.js';

export const newContacts = defineTrigger({
  key: 'newContacts',
  name: 'New contacts',
  description: 'Starts the flow for each new contact.',
  type: 'polling',
  arguments: {},
  run: (ctx) =>
    pollNewObjects(ctx, 'contacts', [
      'email',
      'firstname',
      'lastname',
      'company',
      'phone',
      'website',
      'lifecyclestage',
      'hubspot_owner_id',
    ]),
});

export const newDeals = defineTrigger({
  key: 'newDeals',
  name: 'New deals',
  description: 'Starts the flow for each new deal.',
  type: 'polling',
  arguments: {},
  run: (ctx) =>
    pollNewObjects(ctx, 'deals', ['dealname', 'amount', 'pipeline', 'dealstage', 'closedate', 'hubspot_owner_id']),
});

export const newCompanies = defineTrigger({
  key: 'newCompanies',
  name: 'New companies',
  description: 'Starts the flow for each new company.',
  type: 'polling',
  arguments: {},
  run: (ctx) => pollNewObjects(ctx, 'companies', ['name', 'domain', 'phone', 'city', 'hubspot_owner_id']),
});
