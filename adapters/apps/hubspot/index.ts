import { defineApp } from '../sdk/index.js';
import { hubspotAuth } from './auth.js';
import { createContact, findContact, updateContact } from './contacts.js';
import { listDealStages, listOwners, listPipelines } from './dynamic-data.js';
import { icon } from './icon.js';
import { createCompany, createDeal } from './records.js';
import { newCompanies, newContacts, newDeals } from './triggers.js';

export const hubspot = defineApp({
  key: 'hubspot',
  name: 'HubSpot',
  description: 'Start flows from new contacts, deals and companies in HubSpot; create and update them.',
  icon,
  primaryColor: '#ff7a59',
  categories: ['sales-and-crm', 'marketing'],
  version: 1,
  auth: hubspotAuth,
  triggers: [newContacts, newDeals, newCompanies],
  actions: [createContact, updateContact, findContact, createDeal, createCompany],
  dynamicData: { listOwners, listPipelines, listDealStages },
  http: { baseUrl: 'https://api.hubapi.com' },
});
