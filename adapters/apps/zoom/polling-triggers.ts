import { defineTrigger, segment } from '../sdk/index.js';
import { webinarId, zoomList } from './lists.js';

/** Newest first by a timestamp field (ISO 8601 text sorts by time). */
const newestFirst =
  <T>(field: keyof T) =>
  (a: T, b: T) =>
    String(b[field] ?? '').localeCompare(String(a[field] ?? ''));

interface Meeting {
  readonly id: number;
  readonly uuid?: string;
  readonly created_at?: string;
  readonly start_time?: string;
}

export const newMeeting = defineTrigger({
  key: 'newMeeting',
  name: 'New meeting',
  description: 'Starts a run for each meeting scheduled by the connected user.',
  type: 'polling',
  arguments: {},
  async run(ctx) {
    const meetings = await zoomList<Meeting>(ctx.http, '/users/me/meetings', 'meetings', { type: 'scheduled' });
    return meetings.sort(newestFirst('created_at')).map((meeting) => ({ id: String(meeting.id), data: meeting }));
  },
});

/** Zoom lists recordings of a date range of a month at most: the last four weeks. */
const RECORDING_DAYS = 28;

const day = (date: Date) => date.toISOString().slice(0, 10);

export const newRecording = defineTrigger({
  key: 'newRecording',
  name: 'New cloud recording',
  description: "Starts a run for each meeting whose cloud recording is ready (the last four weeks').",
  type: 'polling',
  arguments: {},
  async run(ctx) {
    const to = new Date();
    const from = new Date(to.getTime() - RECORDING_DAYS * 86_400_000);
    const recorded = await zoomList<Meeting>(ctx.http, '/users/me/recordings', 'meetings', {
      from: day(from),
      to: day(to),
    });
    // Each occurrence of a meeting has its own uuid, and its own recording.
    return recorded
      .sort(newestFirst('start_time'))
      .map((meeting) => ({ id: meeting.uuid ?? String(meeting.id), data: meeting }));
  },
});

interface Registrant {
  readonly id: string;
  readonly create_time?: string;
}

export const newWebinarRegistrant = defineTrigger({
  key: 'newWebinarRegistrant',
  name: 'New webinar registrant',
  description: 'Starts a run for each person who registers for a webinar (approved registrations).',
  type: 'polling',
  arguments: { webinarId },
  async run(ctx) {
    const registrants = await zoomList<Registrant>(
      ctx.http,
      `/webinars/${segment(ctx.parameters.webinarId)}/registrants`,
      'registrants',
      { status: 'approved' },
    );
    return registrants.sort(newestFirst('create_time')).map((registrant) => ({ id: registrant.id, data: registrant }));
  },
});
