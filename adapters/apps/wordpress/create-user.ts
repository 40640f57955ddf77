import { dropdown, restAction, text } from '../sdk/index.js';
import { wpRequest } from './rest.js';

const ROLES = ['administrator', 'author', 'contributor', 'editor', 'subscriber'] as const;

export const createUser = restAction({
  key: 'createUser',
  name: 'Create user',
  description: 'Creates a user of the site and returns it.',
  arguments: {
    email: text({ label: 'E-mail', required: true, acceptsVariables: true }),
    username: text({ label: 'Username', required: true, acceptsVariables: true }),
    password: text({ label: 'Password', required: true, secret: true, acceptsVariables: true }),
    firstName: text({ label: 'First name', acceptsVariables: true }),
    lastName: text({ label: 'Last name', acceptsVariables: true }),
    displayName: text({ label: 'Display name', acceptsVariables: true }),
    nickname: text({ label: 'Nickname', acceptsVariables: true }),
    description: text({ label: 'Description', acceptsVariables: true }),
    website: text({ label: 'Website', acceptsVariables: true }),
    role: dropdown({
      label: 'Role',
      options: ROLES.map((role) => ({ label: role[0]?.toUpperCase() + role.slice(1), value: role })),
    }),
  },
  request: (p) => ({
    method: 'POST',
    ...wpRequest('/wp/v2/users'),
    body: {
      email: p.email,
      username: p.username,
      password: p.password,
      first_name: p.firstName,
      last_name: p.lastName,
      name: p.displayName,
      nickname: p.nickname,
      description: p.description,
      url: p.website,
      roles: p.role ? [p.role] : undefined,
    },
  }),
});
