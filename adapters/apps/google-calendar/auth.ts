import { googleOAuth2 } from '../google-common/index.js';

/** Automatisch's scope: calendars and their events, read and written. */
export const googleCalendarAuth = googleOAuth2(['https://www.googleapis.com/auth/calendar']);
