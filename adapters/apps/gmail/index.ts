import { GOOGLE_APIS, withGoogleRateLimits } from '../google-common/index.js';
import { defineApp } from '../sdk/index.js';
import { gmailAuth } from './auth.js';
import { createDraft } from './create-draft.js';
import { listEmails, listLabels, listMessages, listSignatures, listThreads } from './dynamic-data.js';
import { icon } from './icon.js';
import { sendToTrash, starEmail } from './message-actions.js';
import { replyToEmail } from './reply-to-email.js';
import { sendEmail } from './send-email.js';
import { newEmails, newEmailsMatchingSearch } from './triggers.js';

export const gmail = withGoogleRateLimits(
  defineApp({
    key: 'gmail',
    name: 'Gmail',
    description: 'Send, draft and reply to email, and start flows from new messages in Gmail.',
    icon,
    primaryColor: '#ea4335',
    categories: ['communication'],
    version: 1,
    auth: gmailAuth,
    triggers: [newEmails, newEmailsMatchingSearch],
    actions: [createDraft, replyToEmail, sendEmail, sendToTrash, starEmail],
    dynamicData: { listEmails, listLabels, listMessages, listSignatures, listThreads },
    http: { baseUrl: GOOGLE_APIS.gmail, relatedApis: [GOOGLE_APIS.people] },
  }),
);
