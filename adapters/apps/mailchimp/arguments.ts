import { createHash } from 'node:crypto';
import { dynamicDropdown, segment, text } from '../sdk/index.js';

export const audienceId = dynamicDropdown({
  label: 'Audience',
  required: true,
  dynamicData: 'listAudiences',
  acceptsVariables: true,
});

export const emailAddress = text({ label: 'E-mail address', required: true, acceptsVariables: true });

/** Mailchimp names a member by the MD5 of its lower-cased address. */
export const memberPath = (audience: string, email: string) =>
  `/lists/${segment(audience)}/members/${createHash('md5').update(email.trim().toLowerCase()).digest('hex')}`;
