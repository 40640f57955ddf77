import { GRAPH_API } from '../microsoft-common/index.js';
import { defineApp } from '../sdk/index.js';
import { outlookAuth } from './auth.js';
import { createEvent } from './create-event.js';
import { listCalendars, listMailFolders } from './folders.js';
import { icon } from './icon.js';
import { createDraft, replyToEmail, sendEmail } from './mail-actions.js';
import { newEmail, newEmailInstant, newEvent } from './triggers.js';

export const microsoftOutlook = defineApp({
  key: 'microsoft-outlook',
  name: 'Microsoft Outlook',
  description: 'Mail and calendars of Outlook and Microsoft 365 mailboxes.',
  icon,
  primaryColor: '#0078d4',
  categories: ['communication', 'productivity'],
  version: 1,
  auth: outlookAuth,
  triggers: [newEmail, newEvent, newEmailInstant],
  actions: [sendEmail, createDraft, replyToEmail, createEvent],
  dynamicData: { listMailFolders, listCalendars },
  http: { baseUrl: GRAPH_API },
});
