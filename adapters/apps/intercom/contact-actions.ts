import { dropdown, dynamicDropdown, type KeyValue, keyValueList, restAction, segment, text } from '../sdk/index.js';
import { contactArgument } from './arguments.js';

const attributes = (rows: readonly KeyValue[] | undefined) =>
  rows && rows.length > 0 ? Object.fromEntries(rows.map((row) => [row.key, row.value])) : undefined;

const customAttributes = () =>
  keyValueList({
    label: 'Custom attributes',
    description: 'Attributes the workspace defined (Settings, Data, People).',
    acceptsVariables: true,
  });

export const createContact = restAction({
  key: 'createContact',
  name: 'Create contact',
  description: 'Creates a user or a lead.',
  arguments: {
    role: dropdown({
      label: 'Role',
      required: true,
      default: 'user',
      options: [
        { label: 'User', value: 'user' },
        { label: 'Lead', value: 'lead' },
      ],
    }),
    email: text({ label: 'Email', acceptsVariables: true }),
    externalId: text({ label: 'External id', description: 'Your id for a user.', acceptsVariables: true }),
    name: text({ label: 'Name', acceptsVariables: true }),
    phone: text({ label: 'Phone', acceptsVariables: true }),
    customAttributes: customAttributes(),
  },
  request: (p) => ({
    method: 'POST',
    path: '/contacts',
    body: {
      role: p.role,
      email: p.email,
      external_id: p.externalId,
      name: p.name,
      phone: p.phone,
      custom_attributes: attributes(p.customAttributes),
    },
  }),
});

export const updateContact = restAction({
  key: 'updateContact',
  name: 'Update contact',
  description: "Changes a contact's details; what is left empty stays as it is.",
  arguments: {
    contactId: contactArgument(),
    email: text({ label: 'Email', acceptsVariables: true }),
    name: text({ label: 'Name', acceptsVariables: true }),
    phone: text({ label: 'Phone', acceptsVariables: true }),
    customAttributes: customAttributes(),
  },
  request: (p) => ({
    method: 'PUT',
    path: `/contacts/${segment(p.contactId)}`,
    body: { email: p.email, name: p.name, phone: p.phone, custom_attributes: attributes(p.customAttributes) },
  }),
});

export const addTagToContact = restAction({
  key: 'addTagToContact',
  name: 'Tag contact',
  description: 'Adds a tag to a contact.',
  arguments: {
    contactId: contactArgument(),
    tagId: dynamicDropdown({ label: 'Tag', required: true, dynamicData: 'listTags', acceptsVariables: true }),
  },
  request: ({ contactId, tagId }) => ({
    method: 'POST',
    path: `/contacts/${segment(contactId)}/tags`,
    body: { id: tagId },
  }),
});
