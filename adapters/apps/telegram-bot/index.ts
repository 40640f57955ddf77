import { defineApp } from '../sdk/index.js';
import { sendDocument, sendMessage, sendPhoto } from './actions.js';
import { telegramAuth } from './api.js';
import { icon } from './icon.js';
import { newMessage } from './new-message.js';

export const telegramBot = defineApp({
  key: 'telegram-bot',
  name: 'Telegram',
  description: 'Send messages, photos and files as your Telegram bot, and start flows from what it receives.',
  icon,
  primaryColor: '#2aabee',
  categories: ['communication'],
  version: 1,
  auth: telegramAuth,
  triggers: [newMessage],
  actions: [sendMessage, sendPhoto, sendDocument],
  http: { baseUrl: 'https://api.telegram.org' },
});
