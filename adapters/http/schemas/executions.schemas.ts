import * as v from 'valibot';
import { closedObject } from './fields.js';

/**
 * ISO 8601 as clients write it: a date, or a date and time with optional seconds, fraction and zone.
 * Only this goes to `Date`, whose own parser takes almost anything ("1.5" is 2001-01-05, and any
 * text ending in a number a year) and yields years the database cannot read back.
 */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** ISO-8601 or milliseconds since the epoch, as API.md §6.8 allows. */
const instant = v.pipe(
  v.string(),
  v.trim(),
  v.transform((text) =>
    /^\d+$/.test(text) ? new Date(Number(text)) : ISO_8601.test(text) ? new Date(text) : new Date(Number.NaN),
  ),
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

/** A retry runs on the version the failed run ran (`original`, the default) or the flow's published one. */
export const retrySchema = closedObject({
  version: v.optional(v.picklist(['original', 'current'], 'must be original or current.')),
});
