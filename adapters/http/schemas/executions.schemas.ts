import * as v from 'valibot';

/** ISO-8601 or milliseconds since the epoch, as API.md §6.8 allows. */
const instant = v.pipe(
  v.string(),
  v.trim(),
  v.transform((text) => (/^\d+$/.test(text) ? new Date(Number(text)) : new Date(text))),
  v.check((date) => !Number.isNaN(date.getTime()), 'must be an ISO date-time or milliseconds since the epoch.'),
);

export const executionListQuery = v.object({
  name: v.optional(v.pipe(v.string(), v.maxLength(255))),
  status: v.optional(
    v.picklist(['running', 'waiting', 'success', 'failure'], 'must be running, waiting, success or failure.'),
  ),
  flowId: v.optional(v.pipe(v.string(), v.uuid('must be a UUID.'))),
  startDateTime: v.optional(instant),
  endDateTime: v.optional(instant),
});
