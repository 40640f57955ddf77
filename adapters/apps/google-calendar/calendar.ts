import { dynamicDropdown, segment } from '../sdk/index.js';

export const CALENDAR_V3 = '/calendar/v3';

export const eventsPath = (calendarId: string) => `${CALENDAR_V3}/calendars/${segment(calendarId)}/events`;

export const calendar = dynamicDropdown({
  label: 'Calendar',
  required: true,
  acceptsVariables: true,
  dynamicData: 'listCalendars',
});

export interface CalendarEvent {
  readonly id: string;
  readonly status?: string;
  readonly created?: string;
  readonly updated?: string;
  readonly [field: string]: unknown;
}
