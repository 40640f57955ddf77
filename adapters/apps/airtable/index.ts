import { defineApp } from '../sdk/index.js';
import { airtableAuth } from './auth.js';
import { airtableDynamicData } from './dynamic-data.js';
import { listFields } from './fields.js';
import { icon } from './icon.js';
import { createRecord, findRecord, updateRecord } from './record-actions.js';
import { newRecord, newRecordInView } from './triggers.js';

export const airtable = defineApp({
  key: 'airtable',
  name: 'Airtable',
  description: 'Create, update and find records, and start flows from new records in Airtable bases.',
  icon,
  primaryColor: '#ffbf00',
  categories: ['data-and-databases', 'productivity'],
  version: 1,
  auth: airtableAuth,
  triggers: [newRecord, newRecordInView],
  actions: [createRecord, updateRecord, findRecord],
  dynamicData: airtableDynamicData,
  dynamicFields: { listFields },
  http: { baseUrl: 'https://api.airtable.com/v0' },
});
