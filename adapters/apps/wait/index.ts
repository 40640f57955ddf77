import { type DraftContext, defineApp } from '../sdk/index.js';
import { smtpAuth } from '../smtp/connection.js';
import { waitForApproval, waitForForm, waitForWebhook } from './actions.js';
import { icon } from './icon.js';

/** The forms of the flow's owner, as the forms app lists them. */
const listForms = async (ctx: DraftContext) =>
  (await ctx.owner.forms()).map((form) => ({ name: form.name, value: form.id }));

export const wait = defineApp({
  key: 'wait',
  name: 'Wait',
  description: 'Pause a run until a request, an approval or a filled-in form reaches it.',
  icon,
  primaryColor: '#b45309',
  categories: ['flow-control'],
  version: 1,
  // The connection only sends the links by e-mail: without one, the step waits all the same.
  auth: smtpAuth,
  connection: 'optional',
  triggers: [],
  actions: [waitForWebhook, waitForApproval, waitForForm],
  dynamicData: { listForms },
});
