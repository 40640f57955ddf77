import { defineApp } from '../sdk/index.js';
import { salesforceAuth } from './auth.js';
import { listFields, listObjects } from './dynamic-data.js';
import { executeQuery, findPartiallyMatchingRecord, findRecord } from './find-records.js';
import { icon } from './icon.js';
import { newRecords, updatedFieldInRecords } from './triggers.js';
import { createAttachment, createRecord, updateRecord } from './write-records.js';

export const salesforce = defineApp({
  key: 'salesforce',
  name: 'Salesforce',
  description: 'Start flows from new and changed Salesforce records; find, create and update records, run SOQL.',
  icon,
  primaryColor: '#00a1e0',
  categories: ['sales-and-crm'],
  version: 1,
  auth: salesforceAuth,
  triggers: [updatedFieldInRecords, newRecords],
  actions: [findRecord, findPartiallyMatchingRecord, createAttachment, executeQuery, createRecord, updateRecord],
  dynamicData: { listObjects, listFields },
  http: {
    // Each org has its own instance, learnt when connecting.
    connectionBaseUrl: (auth) => (typeof auth.data.instanceUrl === 'string' ? auth.data.instanceUrl : undefined),
  },
});
