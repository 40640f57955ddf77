import { dynamicDropdown, restAction, text } from '../sdk/index.js';
import { dataOf, numericId, toId } from './api.js';
import { listOf, organizationId, userId } from './choices.js';

const labelIds = (labelId: string | undefined) => (labelId === undefined ? undefined : [Number(labelId)]);

/** The first address given is the primary one. */
const contactPoints = (text: string | undefined) =>
  listOf(text)?.map((value, index) => ({ value, primary: index === 0 }));

export const createPerson = restAction({
  key: 'createPerson',
  name: 'Create person',
  description: 'Creates a person and returns it.',
  arguments: {
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
    ownerId: userId,
    organizationId,
    emails: text({
      label: 'Emails',
      description: 'Separated by commas; the first is the primary one.',
      acceptsVariables: true,
    }),
    phones: text({
      label: 'Phones',
      description: 'Separated by commas; the first is the primary one.',
      acceptsVariables: true,
    }),
    labelId: dynamicDropdown({
      label: 'Label',
      dynamicData: 'listPersonLabelField',
      acceptsVariables: true,
      check: numericId,
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/api/v2/persons',
    body: {
      name: p.name,
      owner_id: toId(p.ownerId),
      org_id: toId(p.organizationId),
      emails: contactPoints(p.emails),
      phones: contactPoints(p.phones),
      label_ids: labelIds(p.labelId),
    },
  }),
  output: dataOf,
});

export const createOrganization = restAction({
  key: 'createOrganization',
  name: 'Create organization',
  description: 'Creates an organization and returns it.',
  arguments: {
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
    ownerId: userId,
    labelId: dynamicDropdown({
      label: 'Label',
      dynamicData: 'listOrganizationLabelField',
      acceptsVariables: true,
      check: numericId,
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/api/v2/organizations',
    body: { name: p.name, owner_id: toId(p.ownerId), label_ids: labelIds(p.labelId) },
  }),
  output: dataOf,
});
