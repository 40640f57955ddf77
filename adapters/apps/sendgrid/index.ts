import { defineApp } from '../sdk/index.js';
import { SENDGRID_API, sendgridAuth, sendgridRegionApi } from './auth.js';
import { addOrUpdateContact, findContact } from './contact-actions.js';
import { listEventTypes, newEmailEvent } from './email-events.js';
import { icon } from './icon.js';
import { listLists, listTemplates } from './lists.js';
import { sendEmail } from './send-email.js';
import { newBounce, newContact } from './triggers.js';

export const sendgrid = defineApp({
  key: 'sendgrid',
  name: 'SendGrid',
  description:
    'Send e-mail with Twilio SendGrid, keep marketing contacts, and start flows from what happens to the e-mail.',
  icon,
  primaryColor: '#1a82e2',
  categories: ['marketing', 'communication'],
  version: 1,
  auth: sendgridAuth,
  triggers: [newEmailEvent, newContact, newBounce],
  actions: [sendEmail, addOrUpdateContact, findContact],
  dynamicData: { listLists, listTemplates, listEventTypes },
  http: {
    baseUrl: SENDGRID_API,
    connectionBaseUrl: (auth) => sendgridRegionApi(sendgridAuth.read(auth).region),
  },
});
