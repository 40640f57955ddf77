import { defineApp } from '../sdk/index.js';
import { TYPEFORM_API, typeformAuth } from './auth.js';
import { createForm } from './create-form.js';
import { deleteResponses } from './delete-responses.js';
import { findResponses } from './find-responses.js';
import { icon } from './icon.js';
import { listForms, listWorkspaces } from './lists.js';
import { newEntry } from './new-entry.js';
import { newForm } from './new-form.js';

export const typeform = defineApp({
  key: 'typeform',
  name: 'Typeform',
  description: "Start flows from Typeform's forms and responses, and create forms or clean up responses.",
  icon,
  primaryColor: '#262627',
  categories: ['forms-and-surveys'],
  version: 1,
  auth: typeformAuth,
  triggers: [newEntry, newForm],
  actions: [findResponses, createForm, deleteResponses],
  dynamicData: { listForms, listWorkspaces },
  http: { baseUrl: TYPEFORM_API },
});
