import { byPageToken } from '../google-common/index.js';
import { defineTrigger, paginate } from '../sdk/index.js';
import { CALENDAR_V3, type CalendarEvent, calendar, eventsPath } from './calendar.js';

export const newCalendar = defineTrigger({
  key: 'newCalendar',
  name: 'New calendar',
  description: 'Triggers when a new calendar is created.',
  type: 'polling',
  arguments: {},
  async run(ctx) {
    const calendars = await paginate<{ id: string }>(
      ctx.http,
      { path: `${CALENDAR_V3}/users/me/calendarList`, query: { maxResults: 250 } },
      byPageToken('items'),
    );
    // The list has no creation time; calendars added last come last.
    return calendars.reverse().map((entry) => ({ id: entry.id, data: entry }));
  },
});

/** How far back the first polls look: they only learn what exists. */
const FIRST_LOOK_MS = 24 * 3600_000;

interface Since {
  /** Sent now: the newest modification time of the poll before last. */
  readonly confirmed?: string;
  /** The newest of the last poll, sent from the next one on. */
  readonly candidate?: string;
}

/**
 * Calendar lists events by modification (`updatedMin`), oldest first, and deletions with them:
 * the trigger asks for those modified since the poll before last (so that a poll whose runs were
 * not stored is read again) and keeps the ones created since, newest first, by event id.
 */
export const newEvent = defineTrigger({
  key: 'newEvent',
  name: 'New event',
  description: 'Triggers when a new event is created.',
  type: 'polling',
  arguments: { calendarId: calendar },
  async run(ctx) {
    const state = ((await ctx.store.get('since:newEvent')) ?? {}) as Since;
    const since = state.confirmed ?? new Date(Date.now() - FIRST_LOOK_MS).toISOString();
    const events = await paginate<CalendarEvent>(
      ctx.http,
      { path: eventsPath(ctx.parameters.calendarId), query: { updatedMin: since, maxResults: 250 } },
      byPageToken('items'),
    );
    const time = (value: string | undefined) => (value ? Date.parse(value) : Number.NaN);
    const latest = events.reduce<string | undefined>(
      (newest, event) =>
        time(event.updated) > (newest ? time(newest) : Number.NEGATIVE_INFINITY) ? event.updated : newest,
      undefined,
    );
    const next: Since = {
      ...((state.candidate ?? state.confirmed) && { confirmed: state.candidate ?? state.confirmed }),
      ...((latest ?? state.candidate) && { candidate: latest ?? state.candidate }),
    };
    await ctx.store.set('since:newEvent', next);
    return events
      .filter((event) => event.status !== 'cancelled' && time(event.created) >= time(since))
      .sort((a, b) => time(b.created) - time(a.created))
      .map((event) => ({ id: event.id, data: event }));
  },
});
