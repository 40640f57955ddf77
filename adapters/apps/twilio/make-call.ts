import { dropdown, dynamicDropdown, restAction, text } from '../sdk/index.js';
import { accountPath, accountSidOf } from './auth.js';

const escapeXml = (value: string) =>
  value.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

export const makeCall = restAction({
  key: 'makeCall',
  name: 'Make a call',
  description: 'Calls a number from one of the account’s numbers and reads a message out.',
  arguments: {
    fromNumber: dynamicDropdown({
      label: 'From Number',
      required: true,
      dynamicData: 'listVoicePhoneNumbers',
      acceptsVariables: true,
      description: 'The Twilio number to call from, with its country code: +15551234567.',
    }),
    toNumber: text({
      label: 'To Number',
      required: true,
      acceptsVariables: true,
      description: 'The number to call, with its country code: +15551234567.',
    }),
    message: text({ label: 'Message', required: true, acceptsVariables: true, description: 'What the call says.' }),
    voice: dropdown({
      label: 'Voice',
      default: 'woman',
      options: [
        { label: 'Woman', value: 'woman' },
        { label: 'Man', value: 'man' },
      ],
    }),
  },
  request: (p, ctx) => ({
    method: 'POST',
    path: accountPath(accountSidOf(ctx.auth), '/Calls.json'),
    body: new URLSearchParams({
      From: p.fromNumber.trim(),
      To: p.toNumber.trim(),
      // TwiML read out by Twilio's text-to-speech; the message is text, never markup.
      Twiml: `<Response><Say voice="${p.voice}">${escapeXml(p.message)}</Say></Response>`,
    }),
  }),
});
