import { textList } from '../google-common/index.js';
import { dropdown, dynamicDropdown, text } from '../sdk/index.js';

/** Automatisch's message arguments, shared by sendEmail, createDraft and replyToEmail. */
export const tos = (required: boolean) =>
  textList({
    label: 'To',
    required,
    description: 'Who will receive this email? Separate addresses with commas.',
    rowKey: 'to',
  });

export const ccs = textList({ label: 'CC', description: 'Separate addresses with commas.', rowKey: 'cc' });

export const bccs = textList({ label: 'BCC', description: 'Separate addresses with commas.', rowKey: 'bcc' });

export const from = dynamicDropdown({
  label: 'From',
  description: 'Select an email address or alias from your Gmail Account. Defaults to the primary email address.',
  acceptsVariables: true,
  dynamicData: 'listEmails',
});

export const fromName = text({ label: 'From Name', acceptsVariables: true });

export const replyTo = text({
  label: 'Reply To',
  description: 'Specify a single reply address other than your own.',
  acceptsVariables: true,
});

export const bodyType = dropdown({
  label: 'Body Type',
  default: 'plain',
  options: [
    { label: 'plain', value: 'plain' },
    { label: 'html', value: 'html' },
  ],
});

export const emailBody = text({ label: 'Body', required: true, acceptsVariables: true });

export const signature = dynamicDropdown({
  label: 'Signature',
  description: 'Added below the body.',
  acceptsVariables: true,
  dynamicData: 'listSignatures',
});

export const messageId = dynamicDropdown({
  label: 'Message ID',
  required: true,
  acceptsVariables: true,
  dynamicData: 'listMessages',
});
