import { restAction, text } from '../sdk/index.js';
import { guildPath } from './auth.js';
import { createFields, description, entityType, image, scheduleOf } from './event-fields.js';

/** Discord's GUILD_ONLY, the only privacy level scheduled events take. */
const GUILD_ONLY = 2;

export const createScheduledEvent = restAction({
  key: 'createScheduledEvent',
  name: 'Create a scheduled event',
  description: 'Creates a scheduled event in the server: in a voice or stage channel, or elsewhere.',
  dynamicFieldsKey: 'listExternalScheduledEventFields',
  arguments: {
    entityType,
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
    description,
    image,
  },
  request: (p, ctx) => ({
    method: 'POST',
    path: guildPath(ctx.auth, '/scheduled-events'),
    body: {
      name: p.name,
      description: p.description,
      image: p.image,
      privacy_level: GUILD_ONLY,
      ...scheduleOf(createFields, p),
    },
  }),
});
