import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { microsoftOutlook } from '../../adapters/apps/microsoft-outlook/index.js';
import { reply } from '../support/fake-vendor.js';
import {
  describeGraphNotifications,
  describeMicrosoftConnection,
  type FakeGraph,
  graphError,
  graphPage,
  runRateLimited,
  startFakeGraph,
} from './support/microsoft-common-fake.js';

const MESSAGES = Array.from({ length: 60 }, (_, i) => ({
  id: `AAMkAG-${60 - i}`,
  subject: `Order ${60 - i}`,
  receivedDateTime: new Date(Date.UTC(2024, 4, 1, 0, 60 - i)).toISOString(),
  from: { emailAddress: { name: 'Shop', address: 'shop@fabrikam.test' } },
}));

const FOLDERS = [
  { id: 'inbox-id', displayName: 'Inbox', childFolderCount: 2 },
  { id: 'drafts-id', displayName: 'Drafts', childFolderCount: 0 },
  { id: 'sent-id', displayName: 'Sent Items', childFolderCount: 0 },
  { id: 'archive-id', displayName: 'Archive', childFolderCount: 0 },
  { id: 'junk-id', displayName: 'Junk Email', childFolderCount: 0 },
];

const events: { transactionId?: string; id: string }[] = [];

let graph: FakeGraph;

beforeAll(async () => {
  graph = await startFakeGraph({
    'GET /me/mailFolders/:folder/messages': (req) =>
      req.query.$orderby === 'receivedDateTime desc'
        ? { value: MESSAGES.slice(0, Number(req.query.$top)).map((m) => ({ ...m, parentFolderId: req.params.folder })) }
        : graphError(400, 'BadRequest', 'Expected $orderby.'),
    'GET /me/events': (req) => ({
      value: [
        { id: 'ev-2', subject: 'Review', createdDateTime: '2024-05-02T08:00:00Z', orderby: req.query.$orderby },
        { id: 'ev-1', subject: 'Kick-off', createdDateTime: '2024-05-01T08:00:00Z' },
      ],
    }),
    'GET /me/calendars/:calendar/events': (req) => ({ value: [{ id: `ev-of-${req.params.calendar}` }] }),
    'POST /me/sendMail': (req) => {
      const { message } = req.body as { message: { toRecipients: unknown[] } };
      return message.toRecipients.length > 0
        ? reply(202)
        : graphError(400, 'ErrorInvalidRecipients', 'At least one recipient is not valid.');
    },
    'POST /me/messages': (req) =>
      reply(201, {
        id: 'AAMkAG-draft',
        isDraft: true,
        webLink: 'https://outlook.office365.com/owa/?ItemID=d',
        ...(req.body as object),
      }),
    'POST /me/messages/:id/:verb': (req) =>
      req.params.id === 'missing'
        ? graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.')
        : reply(202),
    'POST /me/events': (req) => {
      const body = req.body as { transactionId?: string };
      // Graph makes one event per transactionId: the same request again answers the first event.
      const known = events.find((event) => body.transactionId && event.transactionId === body.transactionId);
      if (known) return reply(201, known);
      const event = { id: `AAMkEv-${events.length + 1}`, ...body };
      events.push(event);
      return reply(201, event);
    },
    'POST /me/calendars/:calendar/events': (req) =>
      reply(201, { id: 'AAMkEv-cal', calendar: req.params.calendar, ...(req.body as object) }),
    'GET /me/mailFolders': (req) => graphPage(req, FOLDERS, 2),
    'GET /me/mailFolders/:folder/childFolders': (req) =>
      req.params.folder === 'inbox-id'
        ? {
            value: [
              { id: 'orders-id', displayName: 'Orders' },
              { id: 'news-id', displayName: 'Newsletters' },
            ],
          }
        : graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.'),
    'GET /me/calendars': (req) =>
      graphPage(
        req,
        [
          { id: 'cal-1', name: 'Calendar' },
          { id: 'cal-2', name: 'Birthdays' },
          { id: 'cal-3', name: 'Team' },
        ],
        2,
      ),
    'GET /me/messages/:id': (req) =>
      req.params.id === 'gone'
        ? graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.')
        : { id: req.params.id, subject: 'Hello', bodyPreview: 'Hi there' },
  });
});
afterAll(() => graph.close());

describeMicrosoftConnection(() => ({
  app: microsoftOutlook,
  graph,
  scopes: ['Mail.ReadWrite', 'Mail.Send', 'Calendars.ReadWrite'],
  refreshedBy: { kind: 'trigger', key: 'newEmail', parameters: {}, route: 'GET /me/mailFolders/:folder/messages' },
}));

describeGraphNotifications('newEmailInstant', () => ({
  app: microsoftOutlook,
  graph,
  parameters: { folderId: "AQMk'x" },
  resource: "me/mailFolders('AQMk''x')/messages",
  maxMinutes: 4230,
  entryId: 'AAMkAG-new',
  entryRoute: 'GET /me/messages/:id',
  entry: { id: 'AAMkAG-new', subject: 'Hello', bodyPreview: 'Hi there' },
}));

describe('microsoft-outlook: polling triggers', () => {
  it('newEmail: the 50 newest messages of the Inbox by default, newest first, by id', async () => {
    const items = await runAppTrigger(microsoftOutlook, 'newEmail', graph.call());
    expect(items).toHaveLength(50);
    expect(items[0]).toMatchObject({ id: 'AAMkAG-60', data: { subject: 'Order 60', parentFolderId: 'inbox' } });
    expect(items.at(-1)?.id).toBe('AAMkAG-11');
  });

  it('newEmail: the chosen folder', async () => {
    const items = await runAppTrigger(microsoftOutlook, 'newEmail', graph.call({ folderId: 'orders-id' }));
    expect(items[0]?.data).toMatchObject({ parentFolderId: 'orders-id' });
  });

  it('newEvent: the default calendar by creation, newest first; or the chosen calendar', async () => {
    const items = await runAppTrigger(microsoftOutlook, 'newEvent', graph.call());
    expect(items.map((item) => item.id)).toEqual(['ev-2', 'ev-1']);
    expect(items[0]?.data).toMatchObject({ orderby: 'createdDateTime desc' });
    const chosen = await runAppTrigger(microsoftOutlook, 'newEvent', graph.call({ calendarId: 'cal-2' }));
    expect(chosen.map((item) => item.id)).toEqual(['ev-of-cal-2']);
  });
});

describe('microsoft-outlook: actions', () => {
  it('sendEmail sends a message to every recipient and reports what it sent', async () => {
    const output = await runAppAction(
      microsoftOutlook,
      'sendEmail',
      graph.call({
        to: 'ann@contoso.test; bob@contoso.test',
        cc: 'carol@contoso.test',
        subject: 'Invoice',
        body: '<b>Paid</b>',
        bodyType: 'html',
      }),
    );
    expect(output).toEqual({
      sent: true,
      subject: 'Invoice',
      to: ['ann@contoso.test', 'bob@contoso.test'],
      cc: ['carol@contoso.test'],
      bcc: [],
    });
    expect(graph.vendor.calls('POST /me/sendMail').at(-1)?.body).toEqual({
      message: {
        subject: 'Invoice',
        body: { contentType: 'html', content: '<b>Paid</b>' },
        importance: 'normal',
        toRecipients: [
          { emailAddress: { address: 'ann@contoso.test' } },
          { emailAddress: { address: 'bob@contoso.test' } },
        ],
        ccRecipients: [{ emailAddress: { address: 'carol@contoso.test' } }],
        bccRecipients: [],
        replyTo: [],
      },
      saveToSentItems: true,
    });
  });

  it('sendEmail refuses what is not a list of addresses before sending', async () => {
    await expect(
      runAppAction(microsoftOutlook, 'sendEmail', graph.call({ to: 'ann, bob', subject: 's', body: 'b' })),
    ).rejects.toMatchObject({ fields: { to: ['must be e-mail addresses separated by commas.'] } });
  });

  it('createDraft saves the message and answers it', async () => {
    const output = await runAppAction(
      microsoftOutlook,
      'createDraft',
      graph.call({ to: 'ann@contoso.test', subject: 'Draft', body: 'Later', importance: 'high' }),
    );
    expect(output).toMatchObject({ id: 'AAMkAG-draft', isDraft: true, subject: 'Draft', importance: 'high' });
  });

  it("replyToEmail replies or replies to all; Graph's message when the email is gone", async () => {
    expect(
      await runAppAction(microsoftOutlook, 'replyToEmail', graph.call({ messageId: 'AAMkAG-1', comment: 'Thanks!' })),
    ).toEqual({ replied: true, messageId: 'AAMkAG-1', replyAll: false });
    await runAppAction(
      microsoftOutlook,
      'replyToEmail',
      graph.call({ messageId: 'AAMkAG-1', comment: 'All', replyAll: true }),
    );
    expect(graph.vendor.calls('POST /me/messages/:id/:verb').map((request) => request.path)).toEqual([
      '/me/messages/AAMkAG-1/reply',
      '/me/messages/AAMkAG-1/replyAll',
    ]);
    expect(graph.vendor.calls('POST /me/messages/:id/:verb').at(-1)?.body).toEqual({ comment: 'All' });
    await expect(
      runAppAction(microsoftOutlook, 'replyToEmail', graph.call({ messageId: 'missing', comment: 'x' })),
    ).rejects.toThrow('The specified object was not found in the store.');
  });

  it('createEvent creates the event once per execution step (transactionId), with its attendees', async () => {
    const parameters = {
      subject: 'Planning',
      start: '2024-06-03T09:00',
      end: '2024-06-03T10:00',
      timeZone: 'Europe/Paris',
      location: 'Room 4',
      attendees: 'ann@contoso.test, bob@contoso.test',
    };
    const first = (await runAppAction(microsoftOutlook, 'createEvent', graph.call(parameters))) as { id: string };
    const again = (await runAppAction(microsoftOutlook, 'createEvent', graph.call(parameters))) as { id: string };
    expect(again.id).toBe(first.id);
    expect(graph.vendor.calls('POST /me/events').at(-1)?.body).toMatchObject({
      subject: 'Planning',
      start: { dateTime: '2024-06-03T09:00', timeZone: 'Europe/Paris' },
      end: { dateTime: '2024-06-03T10:00', timeZone: 'Europe/Paris' },
      location: { displayName: 'Room 4' },
      attendees: [
        { emailAddress: { address: 'ann@contoso.test' }, type: 'required' },
        { emailAddress: { address: 'bob@contoso.test' }, type: 'required' },
      ],
      isOnlineMeeting: false,
      transactionId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const inCalendar = await runAppAction(
      microsoftOutlook,
      'createEvent',
      graph.call({ ...parameters, calendarId: 'cal-3' }),
    );
    expect(inCalendar).toMatchObject({ id: 'AAMkEv-cal', calendar: 'cal-3' });
  });

  it('createEvent refuses an end before the start, and a time with an offset', async () => {
    await expect(
      runAppAction(
        microsoftOutlook,
        'createEvent',
        graph.call({ subject: 's', start: '2024-06-03T10:00', end: '2024-06-03T09:00' }),
      ),
    ).rejects.toMatchObject({ fields: { end: ['must be after the start.'] } });
    await expect(
      runAppAction(
        microsoftOutlook,
        'createEvent',
        graph.call({ subject: 's', start: '2024-06-03T10:00Z', end: '2024-06-03T11:00' }),
      ),
    ).rejects.toMatchObject({
      fields: { start: ['must be a date and time such as 2024-05-01T09:30, without an offset.'] },
    });
  });

  it("turns Graph's 429 into a retryable failure after its Retry-After", async () => {
    const outcome = await runRateLimited(microsoftOutlook, graph, 'sendEmail', {
      to: 'a@b.test',
      subject: 's',
      body: 'b',
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 7000 } });
  });
});

describe('microsoft-outlook: dynamic data', () => {
  it('listMailFolders: every page of folders, and the subfolders of those that have some', async () => {
    expect(await loadAppDynamicData(microsoftOutlook, 'listMailFolders', graph.call())).toEqual([
      { name: 'Inbox', value: 'inbox-id' },
      { name: 'Inbox / Orders', value: 'orders-id' },
      { name: 'Inbox / Newsletters', value: 'news-id' },
      { name: 'Drafts', value: 'drafts-id' },
      { name: 'Sent Items', value: 'sent-id' },
      { name: 'Archive', value: 'archive-id' },
      { name: 'Junk Email', value: 'junk-id' },
    ]);
  });

  it('listCalendars: every page', async () => {
    expect(await loadAppDynamicData(microsoftOutlook, 'listCalendars', graph.call())).toEqual([
      { name: 'Calendar', value: 'cal-1' },
      { name: 'Birthdays', value: 'cal-2' },
      { name: 'Team', value: 'cal-3' },
    ]);
  });
});
