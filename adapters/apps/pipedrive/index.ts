import { defineApp } from '../sdk/index.js';
import { createActivity } from './activities.js';
import { pipedriveAuth } from './auth.js';
import { createOrganization, createPerson } from './contacts.js';
import { createDeal } from './deals.js';
import * as lists from './dynamic-data.js';
import { icon } from './icon.js';
import { newEvent } from './instant-trigger.js';
import { createLead } from './leads.js';
import { createNote } from './notes.js';
import { newActivities, newDeals, newLeads, newNotes } from './triggers.js';

export const pipedrive = defineApp({
  key: 'pipedrive',
  name: 'Pipedrive',
  description:
    'Start flows from new deals, leads, activities and notes in Pipedrive; create them, and people and organizations.',
  icon,
  primaryColor: '#017737',
  categories: ['sales-and-crm'],
  version: 1,
  auth: pipedriveAuth,
  triggers: [newActivities, newDeals, newLeads, newNotes, newEvent],
  actions: [createActivity, createDeal, createLead, createNote, createOrganization, createPerson],
  // Every list of dynamic-data.ts, by its name: `listUsers`, `listPersons`...
  dynamicData: { ...lists },
  // API v1 (`/v1/...`) for leads, notes, users and the like; API v2 (`/api/v2/...`) where it exists.
  http: { baseUrl: 'https://api.pipedrive.com' },
});
