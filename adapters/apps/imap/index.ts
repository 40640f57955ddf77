import { defineApp } from '../sdk/index.js';
import { flagEmail, markAsRead, moveEmail } from './actions.js';
import { listMailboxes } from './arguments.js';
import { imapAuth } from './connection.js';
import { icon } from './icon.js';
import { newEmail } from './new-email.js';

export const imap = defineApp({
  key: 'imap',
  name: 'IMAP',
  description: 'Start flows from new e-mail in an IMAP mailbox, and move, flag or mark messages.',
  icon,
  primaryColor: '#0f766e',
  categories: ['communication'],
  version: 1,
  auth: imapAuth,
  triggers: [newEmail],
  actions: [moveEmail, flagEmail, markAsRead],
  dynamicData: { listMailboxes },
});
