import { pollingTrigger } from '../sdk/index.js';

/**
 * The newest records of a list sorted by creation, one page: no Pipedrive list filters by
 * creation time, and 100 (API v1) or 500 (API v2) new records within a poll's five minutes are
 * more than a CRM sees.
 */
const newRecords = (key: string, name: string, description: string, path: string) =>
  pollingTrigger({
    key,
    name,
    description,
    arguments: {},
    request: () => ({
      path,
      query: path.startsWith('/api/v2/')
        ? { sort_by: 'add_time', sort_direction: 'desc', limit: 500 }
        : { sort: 'add_time DESC', limit: 100 },
    }),
    items: 'data',
    id: (record: { id: number | string }) => record.id,
  });

export const newActivities = newRecords(
  'newActivities',
  'New activities',
  'Starts the flow for each new activity.',
  '/api/v2/activities',
);

export const newDeals = newRecords('newDeals', 'New deals', 'Starts the flow for each new deal.', '/api/v2/deals');

export const newLeads = newRecords('newLeads', 'New leads', 'Starts the flow for each new lead.', '/v1/leads');

export const newNotes = newRecords('newNotes', 'New notes', 'Starts the flow for each new note.', '/v1/notes');
