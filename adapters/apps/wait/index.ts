import { type DraftContext, defineApp } from '../sdk/index.js';
import { smtpAuth } from '../smtp/connection.js';
import { waitForApproval, waitForForm, waitForWebhook } from './actions.js';
import { icon } from './icon.js';

/**
 * The forms of the flow's owner. TODO(lead): the forms resource is not on main yet. Once the forms
 * branch is merged (its `OwnerData.forms()`, beside `flows()`), this is
 * `(await ctx.owner.forms()).map((form) => ({ name: form.name, value: form.id }))`, as its app's.
 */
const listForms = async (_ctx: DraftContext): Promise<never> => {
  throw new Error('This instance does not list forms yet.');
};

export const wait = defineApp({
  key: 'wait',
  name: 'Wait',
  description: 'Pause a run until a request, an approval or a filled-in form reaches it.',
  icon,
  primaryColor: '#b45309',
  version: 1,
  // The connection only sends the links by e-mail: without one, the step waits all the same.
  auth: smtpAuth,
  connection: 'optional',
  triggers: [],
  actions: [waitForWebhook, waitForApproval, waitForForm],
  dynamicData: { listForms },
});
