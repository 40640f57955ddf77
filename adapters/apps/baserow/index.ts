import { defineApp } from '../sdk/index.js';
import { createRow, deleteRow, findRows, getRow, updateRow } from './actions.js';
import { BASEROW_CLOUD, baserowAuth } from './auth.js';
import { icon } from './icon.js';
import { listFields, listRows, listTables } from './lists.js';
import { newRow, updatedRow } from './triggers.js';

export const baserow = defineApp({
  key: 'baserow',
  name: 'Baserow',
  description: 'Read and write rows of Baserow tables, and start flows from new or changed rows.',
  icon,
  primaryColor: '#4183c4',
  categories: ['data-and-databases'],
  version: 1,
  auth: baserowAuth,
  triggers: [newRow, updatedRow],
  actions: [createRow, updateRow, deleteRow, getRow, findRows],
  dynamicData: { listTables, listFields, listRows },
  http: {
    baseUrl: BASEROW_CLOUD,
    // A self-hosted server, when the connection names one.
    connectionBaseUrl: (auth) => baserowAuth.read(auth).instanceUrl?.replace(/\/+$/, '') || undefined,
  },
});
