import {
  type ArgumentMap,
  type DynamicFieldsHandler,
  describeArguments,
  dropdown,
  dynamicDropdown,
  parseParameters,
  text,
} from '../sdk/index.js';

export const EXTERNAL = 3;

export const entityType = dropdown({
  label: 'Type',
  required: true,
  acceptsVariables: true,
  options: [
    { label: 'Stage channel', value: 1 },
    { label: 'Voice channel', value: 2 },
    { label: 'External', value: 3 },
  ],
});

export const description = text({ label: 'Description', acceptsVariables: true });

export const image = text({
  label: 'Image',
  acceptsVariables: true,
  description: 'The cover image as a data URI: data:image/png;base64,...',
});

const isoTime = (value: string) => (Number.isNaN(Date.parse(value)) ? 'must be an ISO 8601 date and time.' : null);

const time = (label: string, required: boolean) =>
  text({
    label,
    required,
    acceptsVariables: true,
    description: 'ISO 8601, e.g. 2025-06-01T18:00:00Z.',
    check: isoTime,
  });

const location = (required: boolean) =>
  text({
    label: 'Location',
    required,
    acceptsVariables: true,
    description: 'Where an external event takes place (1 to 100 characters); ignored for channel events.',
  });

/** The voice or stage channel of a channel event: the channels listed depend on the type. */
const channel = dynamicDropdown({
  label: 'Channel',
  required: true,
  dynamicData: 'listChannels',
  dependsOn: ['entityType'],
  acceptsVariables: true,
  description: 'The voice or stage channel the event takes place in.',
});

/** The fields each type of event adds when it is created: an external one needs a place and an end. */
export const createFields = {
  external: {
    location: location(true),
    scheduledStartTime: time('Start time', true),
    scheduledEndTime: time('End time', true),
  },
  channel: {
    channel_id: channel,
    location: location(false),
    scheduledStartTime: time('Start time', true),
    scheduledEndTime: time('End time', false),
  },
} satisfies Record<string, ArgumentMap>;

/** When it is updated, only what an external event cannot lack stays required. */
export const updateFields = {
  external: {
    location: location(true),
    scheduledStartTime: time('Start time', false),
    scheduledEndTime: time('End time', true),
  },
  channel: {
    channel_id: channel,
    location: location(false),
    scheduledStartTime: time('Start time', false),
    scheduledEndTime: time('End time', false),
  },
} satisfies Record<string, ArgumentMap>;

export const isExternal = (value: unknown) => Number(value) === EXTERNAL;

export const fieldsFor =
  (fields: typeof createFields | typeof updateFields): DynamicFieldsHandler =>
  async (ctx) =>
    describeArguments(isExternal(ctx.parameters.entityType) ? fields.external : fields.channel);

interface EventFields {
  readonly channel_id?: string | undefined;
  readonly location?: string | undefined;
  readonly scheduledStartTime?: string | undefined;
  readonly scheduledEndTime?: string | undefined;
}

/**
 * The event's type, times and place as Discord takes them, from the step's parameters checked
 * against its type's fields: a channel, or (external) a location and no channel.
 */
export const scheduleOf = (fields: typeof createFields | typeof updateFields, parameters: { entityType: unknown }) => {
  const type = Number(parameters.entityType);
  const given: EventFields = parseParameters(type === EXTERNAL ? fields.external : fields.channel, parameters);
  return {
    entity_type: type,
    scheduled_start_time: given.scheduledStartTime,
    scheduled_end_time: given.scheduledEndTime,
    ...(type === EXTERNAL
      ? { channel_id: null, entity_metadata: { location: given.location } }
      : { channel_id: given.channel_id, entity_metadata: null }),
  };
};
