import { defineApp } from '../sdk/index.js';
import { twilioAuth } from './auth.js';
import { icon } from './icon.js';
import { makeCall } from './make-call.js';
import { newCall } from './new-call.js';
import { listNumbers } from './phone-numbers.js';
import { receiveSms } from './receive-sms.js';
import { sendSms } from './send-sms.js';

export const twilio = defineApp({
  key: 'twilio',
  name: 'Twilio',
  description: 'Send text messages and make calls with Twilio, and start flows from messages and calls.',
  icon,
  primaryColor: '#f22f46',
  categories: ['communication'],
  version: 1,
  auth: twilioAuth,
  triggers: [receiveSms, newCall],
  actions: [sendSms, makeCall],
  dynamicData: {
    listIncomingPhoneNumbers: listNumbers('sms', (number) => number.phone_number),
    listVoicePhoneNumbers: listNumbers('voice', (number) => number.phone_number),
    listPhoneNumberSids: listNumbers(null, (number) => number.sid),
  },
  http: { baseUrl: 'https://api.twilio.com' },
});
