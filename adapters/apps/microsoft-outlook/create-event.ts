import { createHash } from 'node:crypto';
import { boolean, defineAction, matches, text } from '../sdk/index.js';
import { calendarId, eventsPath } from './folders.js';
import { addresses, addressList } from './message.js';

/** A local date and time, without an offset: Graph pairs it with the time zone. */
const LOCAL_TIME = matches(
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?$/,
  'must be a date and time such as 2024-05-01T09:30, without an offset.',
);

export const createEvent = defineAction({
  key: 'createEvent',
  name: 'Create event',
  description: 'Creates an event in a calendar, inviting its attendees; answers the event.',
  arguments: {
    calendarId,
    subject: text({ label: 'Subject', required: true, acceptsVariables: true }),
    start: text({
      label: 'Start',
      required: true,
      placeholder: '2024-05-01T09:30',
      acceptsVariables: true,
      check: LOCAL_TIME,
    }),
    end: text({
      label: 'End',
      required: true,
      placeholder: '2024-05-01T10:00',
      acceptsVariables: true,
      check: LOCAL_TIME,
    }),
    timeZone: text({
      label: 'Time zone',
      default: 'UTC',
      description: 'An IANA (Europe/Paris) or Windows (Pacific Standard Time) time zone.',
      acceptsVariables: true,
    }),
    body: text({ label: 'Description', acceptsVariables: true }),
    location: text({ label: 'Location', acceptsVariables: true }),
    attendees: text({
      label: 'Attendees',
      description: 'E-mail addresses separated by commas; each is invited.',
      acceptsVariables: true,
      check: addressList,
    }),
    isOnlineMeeting: boolean({ label: 'Online meeting (Teams)', default: false }),
  },
  check: (p) => (p.end > p.start ? null : { end: 'must be after the start.' }),
  async run(ctx) {
    const p = ctx.parameters;
    const { data } = await ctx.http.request({
      method: 'POST',
      path: eventsPath(p.calendarId),
      body: {
        subject: p.subject,
        start: { dateTime: p.start, timeZone: p.timeZone },
        end: { dateTime: p.end, timeZone: p.timeZone },
        ...(p.body !== undefined && { body: { contentType: 'text', content: p.body } }),
        ...(p.location !== undefined && { location: { displayName: p.location } }),
        attendees: addresses(p.attendees).map((address) => ({ emailAddress: { address }, type: 'required' })),
        isOnlineMeeting: p.isOnlineMeeting,
        // Graph creates one event per transactionId: a retried step finds the event it made.
        ...(ctx.execution && {
          transactionId: createHash('sha256').update(ctx.execution.idempotencyKey).digest('base64url'),
        }),
      },
    });
    return data;
  },
});
