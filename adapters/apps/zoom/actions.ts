import { boolean, dropdown, matches, number, restAction, segment, text } from '../sdk/index.js';
import { meetingId, webinarId } from './lists.js';

/** Zoom's start times: local to `timezone` (`2024-05-01T09:30:00`), or UTC with a `Z`. */
const START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z?$/;
const withSeconds = (time: string) => time.replace(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(Z?)$/, '$1:00$2');

export const createMeeting = restAction({
  key: 'createMeeting',
  name: 'Create meeting',
  description: 'Schedules a meeting for the connected user; answers the meeting (its id and join_url).',
  arguments: {
    topic: text({ label: 'Topic', required: true, acceptsVariables: true }),
    startTime: text({
      label: 'Start time',
      required: true,
      placeholder: '2024-05-01T09:30:00',
      description: 'Local to the time zone, or UTC with a Z at the end.',
      acceptsVariables: true,
      check: matches(START, 'must be a date and time such as 2024-05-01T09:30:00 (or ending in Z for UTC).'),
    }),
    duration: number({ label: 'Duration (minutes)', default: 30, integer: true, min: 1, max: 1440 }),
    timezone: text({ label: 'Time zone', placeholder: 'Europe/Paris', acceptsVariables: true }),
    agenda: text({ label: 'Agenda', acceptsVariables: true }),
    password: text({ label: 'Passcode', acceptsVariables: true }),
    waitingRoom: boolean({ label: 'Waiting room', default: false }),
    autoRecording: dropdown({
      label: 'Record automatically',
      default: 'none',
      options: [
        { label: 'No', value: 'none' },
        { label: 'On this computer', value: 'local' },
        { label: 'In the cloud', value: 'cloud' },
      ],
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/users/me/meetings',
    body: {
      topic: p.topic,
      // 2: a scheduled meeting.
      type: 2,
      start_time: withSeconds(p.startTime),
      duration: p.duration,
      ...(p.timezone !== undefined && { timezone: p.timezone }),
      ...(p.agenda !== undefined && { agenda: p.agenda }),
      ...(p.password !== undefined && { password: p.password }),
      settings: { waiting_room: p.waitingRoom, auto_recording: p.autoRecording },
    },
  }),
});

const registrant = {
  email: text({ label: 'Email', required: true, acceptsVariables: true }),
  firstName: text({ label: 'First name', required: true, acceptsVariables: true }),
  lastName: text({ label: 'Last name', acceptsVariables: true }),
};

const registrantBody = (p: {
  readonly email: string;
  readonly firstName: string;
  readonly lastName?: string | undefined;
}) => ({
  email: p.email,
  first_name: p.firstName,
  ...(p.lastName !== undefined && { last_name: p.lastName }),
});

export const addMeetingRegistrant = restAction({
  key: 'addMeetingRegistrant',
  name: 'Add meeting registrant',
  description: 'Registers someone for a meeting with registration on; answers the registrant and their join_url.',
  arguments: { meetingId, ...registrant },
  request: (p) => ({ method: 'POST', path: `/meetings/${segment(p.meetingId)}/registrants`, body: registrantBody(p) }),
});

export const addWebinarRegistrant = restAction({
  key: 'addWebinarRegistrant',
  name: 'Add webinar registrant',
  description: 'Registers someone for a webinar; answers the registrant and their join_url.',
  arguments: { webinarId, ...registrant },
  request: (p) => ({ method: 'POST', path: `/webinars/${segment(p.webinarId)}/registrants`, body: registrantBody(p) }),
});
