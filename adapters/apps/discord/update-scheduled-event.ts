import { dropdown, dynamicDropdown, restAction, segment, text } from '../sdk/index.js';
import { guildPath } from './auth.js';
import { description, entityType, image, scheduleOf, updateFields } from './event-fields.js';

export const updateScheduledEvent = restAction({
  key: 'updateScheduledEvent',
  name: 'Update a scheduled event',
  description: 'Changes a scheduled event of the server: its status, type, place, times, name...',
  dynamicFieldsKey: 'listScheduledEventFieldsForUpdate',
  arguments: {
    scheduledEventId: dynamicDropdown({
      label: 'Scheduled Event',
      required: true,
      dynamicData: 'listScheduledEvents',
      acceptsVariables: true,
    }),
    status: dropdown({
      label: 'Status',
      acceptsVariables: true,
      description: 'Once completed or canceled, an event can no longer change.',
      options: [
        { label: 'Scheduled', value: 1 },
        { label: 'Active', value: 2 },
        { label: 'Completed', value: 3 },
        { label: 'Canceled', value: 4 },
      ],
    }),
    entityType,
    name: text({ label: 'Name', acceptsVariables: true }),
    description,
    image,
  },
  request: (p, ctx) => ({
    // Left-out values stay as they are: JSON drops the undefined ones.
    method: 'PATCH',
    path: guildPath(ctx.auth, `/scheduled-events/${segment(p.scheduledEventId)}`),
    body: {
      status: p.status,
      name: p.name,
      description: p.description,
      image: p.image,
      ...scheduleOf(updateFields, p),
    },
  }),
});
