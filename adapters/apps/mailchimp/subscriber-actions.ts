import { dropdown, keyValueList, restAction, text } from '../sdk/index.js';
import { audienceId, emailAddress, memberPath } from './arguments.js';

const STATUSES = [
  { label: 'Subscribed', value: 'subscribed' },
  { label: 'Pending (double opt-in e-mail)', value: 'pending' },
  { label: 'Unsubscribed', value: 'unsubscribed' },
  { label: 'Transactional', value: 'transactional' },
] as const;

export const addOrUpdateSubscriber = restAction({
  key: 'addOrUpdateSubscriber',
  name: 'Add or update subscriber',
  description: 'Adds a contact to an audience, or updates the one with that address; returns the member.',
  arguments: {
    audienceId,
    emailAddress,
    statusIfNew: dropdown({ label: 'Status when new', default: 'subscribed', options: STATUSES }),
    status: dropdown({ label: 'Status of an existing member', description: 'None: unchanged.', options: STATUSES }),
    mergeFields: keyValueList({
      label: 'Merge fields',
      description: 'By merge tag: FNAME, LNAME, PHONE...',
      acceptsVariables: true,
    }),
  },
  request: (p) => ({
    method: 'PUT',
    path: memberPath(p.audienceId, p.emailAddress),
    body: {
      email_address: p.emailAddress.trim(),
      status_if_new: p.statusIfNew,
      status: p.status,
      merge_fields: p.mergeFields?.length ? Object.fromEntries(p.mergeFields.map((f) => [f.key, f.value])) : undefined,
    },
  }),
});

const tagsOf = (list: string) =>
  list
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

export const addTagsToSubscriber = restAction({
  key: 'addTagsToSubscriber',
  name: 'Add tags to subscriber',
  description: 'Tags a member of an audience; tags that do not exist yet are created.',
  arguments: {
    audienceId,
    emailAddress,
    tags: text({ label: 'Tags', required: true, description: 'Separated by commas.', acceptsVariables: true }),
  },
  check: (p) => (tagsOf(p.tags).length === 0 ? { tags: 'must name at least one tag.' } : null),
  request: (p) => ({
    method: 'POST',
    path: `${memberPath(p.audienceId, p.emailAddress)}/tags`,
    body: { tags: tagsOf(p.tags).map((name) => ({ name, status: 'active' })) },
  }),
  output: (_data, p) => ({ emailAddress: p.emailAddress.trim(), tags: tagsOf(p.tags) }),
});
