import { dynamicDropdown, restAction, text } from '../sdk/index.js';
import { accountPath, accountSidOf } from './auth.js';

export const sendSms = restAction({
  key: 'sendSms',
  name: 'Send an SMS',
  description: 'Sends an SMS from one of the account’s numbers.',
  arguments: {
    fromNumber: dynamicDropdown({
      label: 'From Number',
      required: true,
      dynamicData: 'listIncomingPhoneNumbers',
      acceptsVariables: true,
      description: 'The Twilio number to send from, with its country code: +15551234567.',
    }),
    toNumber: text({
      label: 'To Number',
      required: true,
      acceptsVariables: true,
      description: 'The number to send to, with its country code: +15551234567.',
    }),
    message: text({ label: 'Message', required: true, acceptsVariables: true }),
  },
  request: (p, ctx) => ({
    method: 'POST',
    path: accountPath(accountSidOf(ctx.auth), '/Messages.json'),
    body: new URLSearchParams({ From: p.fromNumber.trim(), To: p.toNumber.trim(), Body: p.message }),
  }),
});
