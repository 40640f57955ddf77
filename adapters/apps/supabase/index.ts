import { defineApp } from '../sdk/index.js';
import { createRow, deleteRows, findRows, updateRows, upsertRow } from './actions.js';
import { dataApi, supabaseAuth } from './auth.js';
import { icon } from './icon.js';
import { listColumns, listTables } from './schema.js';
import { newRow, updatedRow } from './triggers.js';

export const supabase = defineApp({
  key: 'supabase',
  name: 'Supabase',
  description: "Read and write the rows of a Supabase project's tables, and start flows from new or changed rows.",
  icon,
  primaryColor: '#3ecf8e',
  categories: ['data-and-databases'],
  version: 1,
  auth: supabaseAuth,
  triggers: [newRow, updatedRow],
  actions: [createRow, upsertRow, updateRows, deleteRows, findRows],
  dynamicData: { listTables, listColumns },
  // Each connection names its project (Supabase's cloud or a self-hosted one).
  http: { connectionBaseUrl: (auth) => dataApi(supabaseAuth.read(auth).projectUrl) },
});
