import { dropdown, dynamicDropdown, restAction, text } from '../sdk/index.js';
import { asId, tagsArgument, tagsOf } from './arguments.js';

export const createUser = restAction({
  key: 'createUser',
  name: 'Create user',
  description: 'Creates a user (an end user, an agent or an admin).',
  arguments: {
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
    email: text({ label: 'Email', required: true, description: 'Unique in the account.', acceptsVariables: true }),
    details: text({ label: 'Details', acceptsVariables: true }),
    notes: text({ label: 'Notes', acceptsVariables: true }),
    phone: text({ label: 'Phone', placeholder: '+1 (555) 123-4567', acceptsVariables: true }),
    tags: tagsArgument(),
    role: text({ label: 'Role', description: 'end-user (the default), agent or admin.', acceptsVariables: true }),
    organizationId: dynamicDropdown({
      label: 'Organization',
      dynamicData: 'listOrganizations',
      acceptsVariables: true,
    }),
    externalId: text({ label: 'External id', acceptsVariables: true }),
    verified: dropdown({
      label: 'Verified',
      description: "Whether the user's identity is confirmed.",
      acceptsVariables: true,
      options: [
        { label: 'True', value: 'true' },
        { label: 'False', value: 'false' },
      ],
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/users',
    body: {
      user: {
        name: p.name,
        email: p.email,
        details: p.details,
        notes: p.notes,
        phone: p.phone,
        tags: tagsOf(p.tags),
        role: p.role,
        organization_id: asId(p.organizationId),
        external_id: p.externalId,
        verified: p.verified === 'true',
      },
    },
  }),
});
