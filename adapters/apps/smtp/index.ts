import { defineApp } from '../sdk/index.js';
import { smtpAuth } from './connection.js';
import { icon } from './icon.js';
import { sendEmail } from './send-email.js';

export const smtp = defineApp({
  key: 'smtp',
  name: 'SMTP',
  description: 'Send email through any SMTP server.',
  icon,
  primaryColor: '#2daae1',
  categories: ['communication'],
  version: 1,
  auth: smtpAuth,
  triggers: [],
  actions: [sendEmail],
});
