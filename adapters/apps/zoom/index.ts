import { defineApp } from '../sdk/index.js';
import { addMeetingRegistrant, addWebinarRegistrant, createMeeting } from './actions.js';
import { ZOOM_API, zoomAuth } from './auth.js';
import { icon } from './icon.js';
import { listMeetings, listWebinars } from './lists.js';
import { newMeeting, newRecording, newWebinarRegistrant } from './polling-triggers.js';
import { meetingEnded, meetingStarted, recordingCompleted, webinarRegistrationCreated } from './webhook-triggers.js';

export const zoom = defineApp({
  key: 'zoom',
  name: 'Zoom',
  description: 'Meetings, webinar registrants and cloud recordings in Zoom.',
  icon,
  primaryColor: '#0b5cff',
  categories: ['communication'],
  version: 1,
  auth: zoomAuth,
  triggers: [
    newMeeting,
    newRecording,
    newWebinarRegistrant,
    meetingStarted,
    meetingEnded,
    recordingCompleted,
    webinarRegistrationCreated,
  ],
  actions: [createMeeting, addMeetingRegistrant, addWebinarRegistrant],
  dynamicData: { listMeetings, listWebinars },
  http: { baseUrl: ZOOM_API },
});
