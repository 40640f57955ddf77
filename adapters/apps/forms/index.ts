import { type DraftContext, defineApp, noAuth } from '../sdk/index.js';
import { icon } from './icon.js';
import { newFormSubmission } from './new-form-submission.js';
import { respondWith } from './respond-with.js';

/** The flow's owner's forms, for the trigger's dropdown. */
const listForms = async (ctx: DraftContext) =>
  (await ctx.owner.forms()).map((form) => ({ name: form.name, value: form.id }));

export const forms = defineApp({
  key: 'forms',
  name: 'Forms',
  description: 'Start flows with the answers of your forms, and answer the people who sent them.',
  icon,
  primaryColor: '#0059f7',
  categories: ['forms-and-surveys'],
  version: 1,
  auth: noAuth(),
  triggers: [newFormSubmission],
  actions: [respondWith],
  dynamicData: { listForms },
});
