import { dropdown, dynamicDropdown, matches, restAction, text } from '../sdk/index.js';

export const createChannel = restAction({
  key: 'createChannel',
  name: 'Create a channel',
  description: 'Creates a public or private channel in a team.',
  arguments: {
    team: dynamicDropdown({ label: 'Team', required: true, dynamicData: 'listTeams', acceptsVariables: true }),
    displayName: text({ label: 'Display name', required: true, acceptsVariables: true }),
    name: text({
      label: 'Name',
      required: true,
      acceptsVariables: true,
      description: 'The channel’s handle in its URL: lowercase letters, digits, - and _.',
      check: matches(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be lowercase letters, digits, - and _ (64 at most).'),
    }),
    type: dropdown({
      label: 'Type',
      default: 'O',
      options: [
        { label: 'Public', value: 'O' },
        { label: 'Private', value: 'P' },
      ],
    }),
    purpose: text({ label: 'Purpose', acceptsVariables: true }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/channels',
    body: { team_id: p.team, name: p.name, display_name: p.displayName, type: p.type, purpose: p.purpose },
  }),
});
