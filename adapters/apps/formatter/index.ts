import { defineApp, noAuth } from '../sdk/index.js';
import { dateTimeAction, dateTimeFields } from './date-time.js';
import { icon } from './icon.js';
import { numbersAction, numbersFields } from './numbers.js';
import { textAction, textFields } from './text.js';

export const formatter = defineApp({
  key: 'formatter',
  name: 'Formatter',
  description: 'Transform text, numbers, dates and times between steps.',
  icon,
  primaryColor: '#8b5cf6',
  categories: ['utilities'],
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [textAction, numbersAction, dateTimeAction],
  dynamicFields: { textFields, numbersFields, dateTimeFields },
});
