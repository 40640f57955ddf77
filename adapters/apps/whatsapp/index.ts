import { defineApp } from '../sdk/index.js';
import { whatsappAuth } from './auth.js';
import { icon } from './icon.js';
import { sendMediaMessage, sendTemplateMessage, sendTextMessage } from './send.js';
import { listTemplates } from './templates.js';
import { newMessage, newMessageStatus } from './webhooks.js';

export const whatsapp = defineApp({
  key: 'whatsapp',
  name: 'WhatsApp Business',
  description: 'Send WhatsApp messages and templates from a business number (Cloud API), and start flows from replies.',
  icon,
  primaryColor: '#25d366',
  categories: ['communication', 'marketing'],
  version: 1,
  auth: whatsappAuth,
  triggers: [newMessage, newMessageStatus],
  actions: [sendTextMessage, sendTemplateMessage, sendMediaMessage],
  dynamicData: { listTemplates },
  http: { baseUrl: 'https://graph.facebook.com/v24.0' },
});
