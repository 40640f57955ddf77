import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { googleCalendar } from '../../adapters/apps/google-calendar/index.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import type { FakeRequest } from '../support/fake-vendor.js';
import {
  describeGoogleConnection,
  type FakeGoogle,
  googleError,
  startFakeGoogle,
} from './support/google-common-fake.js';

const CAL = '/calendar/v3';
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

type Event = { id: string; status: string; summary: string; created: string; updated: string };

const CALENDARS = Array.from({ length: 5 }, (_, i) => ({
  kind: 'calendar#calendarListEntry',
  id: i === 0 ? 'ann@example.com' : `c${i}@group.calendar.google.com`,
  summary: `Calendar ${i}`,
}));

let google: FakeGoogle;
let events: Event[];
let inserted: Map<string, Record<string, unknown>>;

/** Calendar's lists: `maxResults` from `pageToken` (an offset here). */
const page = <T>(req: FakeRequest, entries: readonly T[], size: number) => {
  const start = Number(req.query.pageToken ?? 0);
  const next = start + size < entries.length ? String(start + size) : undefined;
  return { items: entries.slice(start, start + size), ...(next && { nextPageToken: next }) };
};

beforeAll(async () => {
  google = await startFakeGoogle({
    [`GET ${CAL}/users/me/calendarList`]: (req) => page(req, CALENDARS, 2),
    [`GET ${CAL}/calendars/:calendarId/events`]: (req) => {
      if (req.params.calendarId !== 'ann@example.com') return googleError(404, 'Not Found', 'NOT_FOUND', 'notFound');
      // Modified since updatedMin, oldest modification first, deletions included.
      const since = Date.parse(req.query.updatedMin ?? '1970-01-01T00:00:00Z');
      const matching = events
        .filter((event) => Date.parse(event.updated) >= since)
        .sort((a, b) => a.updated.localeCompare(b.updated));
      return page(req, matching, 2);
    },
    [`POST ${CAL}/calendars/:calendarId/events`]: (req) => {
      const body = req.body as { id?: string };
      if (body.id && inserted.has(body.id))
        return googleError(409, 'The requested identifier already exists.', 'ALREADY_EXISTS', 'duplicate');
      const event = {
        kind: 'calendar#event',
        status: 'confirmed',
        htmlLink: 'https://www.google.com/calendar/event?eid=x',
        ...body,
      };
      inserted.set(body.id ?? `gen${inserted.size}`, event);
      return event;
    },
    [`GET ${CAL}/calendars/:calendarId/events/:eventId`]: (req) =>
      inserted.get(req.params.eventId ?? '') ?? googleError(404, 'Not Found', 'NOT_FOUND', 'notFound'),
    [`POST ${CAL}/calendars/:calendarId/events/quickAdd`]: (req) => ({
      kind: 'calendar#event',
      id: 'qa1',
      summary: req.query.text,
    }),
    [`DELETE ${CAL}/calendars/:calendarId/events/:eventId`]: (req) =>
      req.params.eventId === 'e1' ? '' : googleError(410, 'Resource has been deleted', 'GONE', 'deleted'),
  });
});
afterAll(() => google.close());
beforeEach(() => {
  inserted = new Map();
  events = [
    {
      id: 'old',
      status: 'confirmed',
      summary: 'Created long ago, edited now',
      created: minutesAgo(60 * 24 * 30),
      updated: minutesAgo(3),
    },
    { id: 'e1', status: 'confirmed', summary: 'Standup', created: minutesAgo(20), updated: minutesAgo(20) },
    { id: 'e2', status: 'confirmed', summary: 'Review', created: minutesAgo(10), updated: minutesAgo(9) },
    { id: 'gone', status: 'cancelled', summary: 'Cancelled', created: minutesAgo(8), updated: minutesAgo(7) },
  ];
});

describe('google-calendar: keeps Automatisch keys', () => {
  it('app, client settings, triggers with their arguments, dynamic data', () => {
    const steps = (items: readonly { key: string; arguments: readonly { key: string }[] }[]) =>
      Object.fromEntries(items.map((step) => [step.key, step.arguments.map((argument) => argument.key)]));
    expect(googleCalendar.key).toBe('google-calendar');
    expect(googleCalendar.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(steps(googleCalendar.manifest.triggers)).toEqual({ newCalendar: [], newEvent: ['calendarId'] });
    // Automatisch's Calendar has no actions; these are ours.
    expect(steps(googleCalendar.manifest.actions)).toEqual({
      createEvent: [
        'calendarId',
        'summary',
        'startDateTime',
        'endDateTime',
        'timeZone',
        'description',
        'location',
        'attendees',
        'sendUpdates',
      ],
      quickAddEvent: ['calendarId', 'text'],
      deleteEvent: ['calendarId', 'eventId'],
    });
    expect(Object.keys(googleCalendar.dynamicData)).toEqual(['listCalendars']);
  });
});

describeGoogleConnection(() => ({
  app: googleCalendar,
  google,
  scopes: ['https://www.googleapis.com/auth/calendar'],
  refreshedBy: { kind: 'trigger', key: 'newCalendar', parameters: {}, route: `GET ${CAL}/users/me/calendarList` },
}));

describe('google-calendar: triggers', () => {
  it('newCalendar: every page of the calendar list, the last added first, by calendar id', async () => {
    const items = await runAppTrigger(googleCalendar, 'newCalendar', google.call());
    expect(items.map((item) => item.id)).toEqual(CALENDARS.map((entry) => entry.id).reverse());
  });

  it('newEvent: events created since the poll before last, newest first, not old ones edited nor cancelled ones', async () => {
    const store = createMemoryStore();
    const poll = () =>
      runAppTrigger(googleCalendar, 'newEvent', { ...google.call({ calendarId: 'ann@example.com' }), store });
    const first = await poll();
    expect(first.map((item) => item.id)).toEqual(['e2', 'e1']);
    const firstSince = google.vendor.calls(`GET ${CAL}/calendars/:calendarId/events`).at(-1)?.query.updatedMin ?? '';
    expect(Date.now() - Date.parse(firstSince)).toBeGreaterThan(23 * 3600_000);
    await poll();
    events.push({ id: 'e3', status: 'confirmed', summary: 'New', created: minutesAgo(1), updated: minutesAgo(1) });
    const third = await poll();
    // The third poll asks from the newest modification the first one saw: the "old" event's.
    expect(google.vendor.calls(`GET ${CAL}/calendars/:calendarId/events`).at(-1)?.query.updatedMin).toBe(
      events[0]?.updated,
    );
    expect(third.map((item) => item.id)).toEqual(['e3']);
  });

  it("fails with Calendar's message for a calendar it does not know", async () => {
    await expect(runAppTrigger(googleCalendar, 'newEvent', google.call({ calendarId: 'nope' }))).rejects.toThrow(
      /answered 404: Not Found/,
    );
  });
});

describe('google-calendar: actions', () => {
  it('creates an event with its own id, so that a retried step finds the one it made', async () => {
    const parameters = {
      calendarId: 'ann@example.com',
      summary: 'Kick-off',
      startDateTime: '2024-05-01T14:00:00',
      timeZone: 'Europe/Paris',
      attendees: 'bob@example.com, cy@example.com',
      location: 'Room 1',
    };
    const created = (await runAppAction(googleCalendar, 'createEvent', google.call(parameters))) as { id: string };
    const sent = google.vendor.calls(`POST ${CAL}/calendars/:calendarId/events`).at(-1);
    expect(sent?.query).toEqual({ sendUpdates: 'none' });
    expect(sent?.body).toEqual({
      id: created.id,
      summary: 'Kick-off',
      start: { dateTime: '2024-05-01T14:00:00', timeZone: 'Europe/Paris' },
      end: { dateTime: new Date(Date.parse('2024-05-01T14:00:00') + 3600_000).toISOString(), timeZone: 'Europe/Paris' },
      location: 'Room 1',
      attendees: [{ email: 'bob@example.com' }, { email: 'cy@example.com' }],
    });
    expect(created.id).toMatch(/^[0-9a-v]{5,1024}$/);
    const again = await runAppAction(googleCalendar, 'createEvent', google.call(parameters));
    expect(again).toEqual(created);
    expect(inserted.size).toBe(1);
  });

  it('makes an all-day event of a date, ending the next day', async () => {
    await runAppAction(
      googleCalendar,
      'createEvent',
      google.call({
        calendarId: 'ann@example.com',
        summary: 'Holiday',
        startDateTime: '2024-12-31',
        sendUpdates: 'all',
      }),
    );
    const sent = google.vendor.calls(`POST ${CAL}/calendars/:calendarId/events`).at(-1);
    expect(sent?.body).toMatchObject({ start: { date: '2024-12-31' }, end: { date: '2025-01-01' } });
    expect(sent?.query).toEqual({ sendUpdates: 'all' });
    await expect(
      runAppAction(
        googleCalendar,
        'createEvent',
        google.call({ calendarId: 'ann@example.com', summary: 'x', startDateTime: 'soon' }),
      ),
    ).rejects.toThrow(/neither a date/);
  });

  it("quick-adds from a sentence, deletes, and fails with Calendar's message", async () => {
    expect(
      await runAppAction(
        googleCalendar,
        'quickAddEvent',
        google.call({ calendarId: 'ann@example.com', text: 'Lunch tomorrow at noon' }),
      ),
    ).toEqual({ kind: 'calendar#event', id: 'qa1', summary: 'Lunch tomorrow at noon' });
    expect(
      await runAppAction(googleCalendar, 'deleteEvent', google.call({ calendarId: 'ann@example.com', eventId: 'e1' })),
    ).toEqual({
      deleted: true,
      eventId: 'e1',
    });
    await expect(
      runAppAction(googleCalendar, 'deleteEvent', google.call({ calendarId: 'ann@example.com', eventId: 'e9' })),
    ).rejects.toThrow(/answered 410: Resource has been deleted/);
  });
});

describe('google-calendar: dynamic data', () => {
  it('lists every page of calendars', async () => {
    const calendars = await loadAppDynamicData(googleCalendar, 'listCalendars', google.call());
    expect(calendars).toEqual(CALENDARS.map((entry) => ({ name: entry.summary, value: entry.id })));
    expect(
      google.vendor
        .calls(`GET ${CAL}/users/me/calendarList`)
        .slice(-3)
        .map((r) => r.query.pageToken),
    ).toEqual([undefined, '2', '4']);
  });
});
