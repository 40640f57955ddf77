import { defineTrigger, dynamicDropdown } from '../sdk/index.js';
import { teamChannels } from './lists.js';

export const newChannel = defineTrigger({
  key: 'newChannel',
  name: 'New channel',
  description: 'Starts the flow for each public channel created in a team.',
  type: 'polling',
  arguments: {
    team: dynamicDropdown({ label: 'Team', required: true, dynamicData: 'listTeams' }),
  },
  async run(ctx) {
    const channels = await teamChannels(ctx.http, ctx.parameters.team);
    return channels.sort((a, b) => b.create_at - a.create_at).map((channel) => ({ id: channel.id, data: channel }));
  },
});
