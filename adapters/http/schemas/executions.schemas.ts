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

/** A text to look for in stored data, matched as a plain substring (no pattern of the user's). */
export const searchText = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'must not be empty.'),
  v.maxLength(100, 'must be at most 100 characters.'),
  // Postgres cannot take a NUL in a text parameter; no stored JSON holds a raw control character.
  v.check((text) => [...text].every((c) => c.charCodeAt(0) >= 0x20), 'must not hold control characters.'),
);

export const executionListQuery = v.object({
  name: v.optional(v.pipe(v.string(), v.maxLength(255))),
  status: v.optional(
    v.picklist(['running', 'waiting', 'success', 'failure'], 'must be running, waiting, success or failure.'),
  ),
  flowId: v.optional(v.pipe(v.string(), v.uuid('must be a UUID.'))),
  startDateTime: v.optional(instant),
  endDateTime: v.optional(instant),
  /** The version the runs ran, by its number (`flowVersion.number`). */
  flowVersion: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[1-9]\d{0,8}$/, 'must be a version number (1 or more).'),
      v.transform((text) => Number(text)),
    ),
  ),
  /** Text found anywhere in the runs' records (their input, output or error), case-insensitively. */
  q: v.optional(searchText),
});

/**
 * A retry runs on the version the failed run ran (`original`, the default) or the flow's published
 * one; with `fromStepId`, any finished run runs again from that step, on the version it ran.
 */
export const retrySchema = closedObject({
  version: v.optional(v.picklist(['original', 'current'], 'must be original or current.')),
  fromStepId: v.optional(v.pipe(v.string('must be a step id.'), v.uuid('must be a UUID.'))),
});

/** A person's answer to a tool call an agent waits on. */
export const callApprovalSchema = closedObject({
  approved: v.boolean('must be true or false.'),
});

const testMessage = closedObject({
  role: v.picklist(['user', 'assistant'], 'must be user or assistant.'),
  content: v.pipe(v.string('must be text.'), v.maxLength(100_000, 'must be at most 100000 characters.')),
});

/** A test of an agent from the console (Automatisch's): the conversation so far, its last message the user's. */
export const agentTestSchema = closedObject({
  messages: v.pipe(
    v.array(testMessage, 'must be a list of messages.'),
    v.minLength(1, 'must hold at least one message.'),
    v.maxLength(200, 'must hold at most 200 messages.'),
    v.check((messages) => messages.at(-1)?.role === 'user', 'must end with a message of the user.'),
  ),
});
