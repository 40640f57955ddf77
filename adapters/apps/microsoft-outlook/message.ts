import { boolean, dropdown, text } from '../sdk/index.js';

const SEPARATORS = /[,;\n]/;
const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

/** The addresses of a list typed with commas, semicolons or new lines; blanks dropped. */
export const addresses = (value: string | undefined): string[] =>
  (value ?? '')
    .split(SEPARATORS)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** A check for a list of addresses (recipients, attendees). */
export const addressList = (value: string) =>
  addresses(value).every((entry) => ADDRESS.test(entry)) ? null : 'must be e-mail addresses separated by commas.';

const PLACEHOLDER = 'ann@contoso.com, bob@contoso.com';
const recipientsArgument = (label: string) =>
  text({ label, acceptsVariables: true, placeholder: PLACEHOLDER, check: addressList });

/** Graph's recipients (`toRecipients`, `ccRecipients`...). */
export const recipients = (value: string | undefined) =>
  addresses(value).map((address) => ({ emailAddress: { address } }));

/** What sendEmail and createDraft take: a message's fields. */
export const messageArguments = {
  to: text({ label: 'To', required: true, acceptsVariables: true, placeholder: PLACEHOLDER, check: addressList }),
  cc: recipientsArgument('Cc'),
  bcc: recipientsArgument('Bcc'),
  replyTo: recipientsArgument('Reply to'),
  subject: text({ label: 'Subject', required: true, acceptsVariables: true }),
  body: text({ label: 'Body', required: true, acceptsVariables: true }),
  bodyType: dropdown({
    label: 'Body type',
    default: 'text',
    options: [
      { label: 'Text', value: 'text' },
      { label: 'HTML', value: 'html' },
    ],
  }),
  importance: dropdown({
    label: 'Importance',
    default: 'normal',
    options: [
      { label: 'Low', value: 'low' },
      { label: 'Normal', value: 'normal' },
      { label: 'High', value: 'high' },
    ],
  }),
};

export const saveToSentItems = boolean({ label: 'Save to Sent Items', default: true });

interface MessageFields {
  readonly to: string;
  readonly cc?: string | undefined;
  readonly bcc?: string | undefined;
  readonly replyTo?: string | undefined;
  readonly subject: string;
  readonly body: string;
  readonly bodyType: 'text' | 'html';
  readonly importance: 'low' | 'normal' | 'high';
}

/** Graph's message resource for the fields. */
export const graphMessage = (p: MessageFields) => ({
  subject: p.subject,
  body: { contentType: p.bodyType, content: p.body },
  importance: p.importance,
  toRecipients: recipients(p.to),
  ccRecipients: recipients(p.cc),
  bccRecipients: recipients(p.bcc),
  replyTo: recipients(p.replyTo),
});
