import { byPageToken, GOOGLE_APIS, withGoogleRateLimits } from '../google-common/index.js';
import { type DraftContext, defineApp, paginate } from '../sdk/index.js';
import { createEvent, deleteEvent, quickAddEvent } from './actions.js';
import { googleCalendarAuth } from './auth.js';
import { CALENDAR_V3 } from './calendar.js';
import { icon } from './icon.js';
import { newCalendar, newEvent } from './triggers.js';

const listCalendars = async (ctx: DraftContext) => {
  const calendars = await paginate<{ id: string; summary: string; summaryOverride?: string }>(
    ctx.http,
    { path: `${CALENDAR_V3}/users/me/calendarList`, query: { maxResults: 250 } },
    byPageToken('items'),
  );
  return calendars.map((entry) => ({ name: entry.summaryOverride ?? entry.summary, value: entry.id }));
};

export const googleCalendar = withGoogleRateLimits(
  defineApp({
    key: 'google-calendar',
    name: 'Google Calendar',
    description: 'Start flows from new calendars and events; create, quick-add and delete events.',
    icon,
    primaryColor: '#448aff',
    categories: ['productivity'],
    version: 1,
    auth: googleCalendarAuth,
    triggers: [newCalendar, newEvent],
    actions: [createEvent, quickAddEvent, deleteEvent],
    dynamicData: { listCalendars },
    http: { baseUrl: GOOGLE_APIS.www, relatedApis: [GOOGLE_APIS.people] },
  }),
);
