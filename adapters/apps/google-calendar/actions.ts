import { createHash } from 'node:crypto';
import { textList } from '../google-common/index.js';
import { type AppContext, defineAction, dropdown, HttpError, restAction, segment, text } from '../sdk/index.js';
import { type CalendarEvent, calendar, eventsPath } from './calendar.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HOUR_MS = 3600_000;

/** A start or end as Calendar takes it: a day (all-day events) or a time in a zone. */
const when = (value: string, timeZone: string | undefined) =>
  DATE_ONLY.test(value) ? { date: value } : { dateTime: value, ...(timeZone && { timeZone }) };

/** The end when none is given: the next day for an all-day event, else an hour after the start. */
const defaultEnd = (start: string): string => {
  if (DATE_ONLY.test(start)) {
    const day = new Date(`${start}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() + 1);
    return day.toISOString().slice(0, 10);
  }
  const at = Date.parse(start);
  if (Number.isNaN(at)) throw new Error(`The start ${start} is neither a date (2024-05-01) nor a date and time.`);
  return new Date(at + HOUR_MS).toISOString();
};

/**
 * Calendar takes the event id from the caller (base32hex: 0-9 and a-v, 5 to 1024 characters): one
 * made from the step's idempotency key makes a retried insert find the event it created.
 */
const eventIdFor = (idempotencyKey: string) => {
  const digest = createHash('sha256').update(idempotencyKey).digest();
  let bits = '';
  for (const byte of digest) bits += byte.toString(2).padStart(8, '0');
  return (bits.match(/.{1,5}/g) ?? []).map((chunk) => Number.parseInt(chunk.padEnd(5, '0'), 2).toString(32)).join('');
};

const insertOnce = async (
  ctx: AppContext<unknown>,
  path: string,
  event: Record<string, unknown>,
  query: Record<string, string>,
) => {
  const id = ctx.execution ? eventIdFor(ctx.execution.idempotencyKey) : undefined;
  try {
    return (
      await ctx.http.request<CalendarEvent>({ method: 'POST', path, query, body: { ...event, ...(id && { id }) } })
    ).data;
  } catch (error) {
    // 409: this step's earlier attempt created it, and its answer was lost.
    if (!(id && error instanceof HttpError && error.status === 409)) throw error;
    return (await ctx.http.request<CalendarEvent>({ path: `${path}/${segment(id)}` })).data;
  }
};

export const createEvent = defineAction({
  key: 'createEvent',
  name: 'Create event',
  description: 'Creates an event in a calendar.',
  arguments: {
    calendarId: calendar,
    summary: text({ label: 'Title', required: true, acceptsVariables: true }),
    startDateTime: text({
      label: 'Start',
      required: true,
      description: 'A date (2024-05-01) for an all-day event, or a date and time (2024-05-01T14:00:00+02:00).',
      acceptsVariables: true,
    }),
    endDateTime: text({
      label: 'End',
      description: 'Empty: an hour after the start, or the next day for an all-day event.',
      acceptsVariables: true,
    }),
    timeZone: text({
      label: 'Time zone',
      description: 'An IANA name (Europe/Paris) for times without an offset.',
      acceptsVariables: true,
    }),
    description: text({ label: 'Description', acceptsVariables: true }),
    location: text({ label: 'Location', acceptsVariables: true }),
    attendees: textList({ label: 'Attendees', description: 'E-mail addresses, separated by commas.', rowKey: 'email' }),
    sendUpdates: dropdown({
      label: 'Invite attendees',
      default: 'none',
      options: [
        { label: 'No e-mails', value: 'none' },
        { label: 'E-mail all attendees', value: 'all' },
        { label: 'E-mail attendees outside Google Calendar', value: 'externalOnly' },
      ],
    }),
  },
  run(ctx) {
    const p = ctx.parameters;
    const event = {
      summary: p.summary,
      start: when(p.startDateTime, p.timeZone),
      end: when(p.endDateTime || defaultEnd(p.startDateTime), p.timeZone),
      ...(p.description && { description: p.description }),
      ...(p.location && { location: p.location }),
      ...(p.attendees.length > 0 && { attendees: p.attendees.map((email) => ({ email })) }),
    };
    return insertOnce(ctx, eventsPath(p.calendarId), event, { sendUpdates: p.sendUpdates });
  },
});

export const quickAddEvent = restAction({
  key: 'quickAddEvent',
  name: 'Quick add event',
  description: 'Creates an event from a sentence, as Calendar reads it ("Lunch with Ann tomorrow at noon").',
  arguments: { calendarId: calendar, text: text({ label: 'Text', required: true, acceptsVariables: true }) },
  request: (p) => ({ method: 'POST', path: `${eventsPath(p.calendarId)}/quickAdd`, query: { text: p.text } }),
});

export const deleteEvent = restAction({
  key: 'deleteEvent',
  name: 'Delete event',
  description: 'Deletes an event.',
  arguments: { calendarId: calendar, eventId: text({ label: 'Event ID', required: true, acceptsVariables: true }) },
  request: (p) => ({ method: 'DELETE', path: `${eventsPath(p.calendarId)}/${segment(p.eventId)}` }),
  output: (_data, p) => ({ deleted: true, eventId: p.eventId }),
});
