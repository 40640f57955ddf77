import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { gmail } from '../../adapters/apps/gmail/index.js';
import type { FakeRequest } from '../support/fake-vendor.js';
import {
  describeGoogleConnection,
  type FakeGoogle,
  googleError,
  startFakeGoogle,
} from './support/google-common-fake.js';

const ME = '/gmail/v1/users/me';

/** 60 messages, newest first as Gmail lists them, each in its own thread. */
const MESSAGES = Array.from({ length: 60 }, (_, i) => {
  const n = 60 - i;
  return {
    id: `m${n}`,
    threadId: `t${n}`,
    labelIds: n % 2 ? ['INBOX', 'UNREAD'] : ['INBOX', 'Label_7'],
    snippet: `Snippet ${n}`,
    payload: {
      headers: [
        { name: 'Subject', value: `Invoice ${n}` },
        { name: 'From', value: `Shop <shop${n}@example.com>` },
        { name: 'Message-ID', value: `<msg${n}@mail.example.com>` },
        { name: 'References', value: `<root${n}@mail.example.com>` },
      ],
    },
  };
});

/** Gmail's lists: `maxResults` entries from `pageToken` (an offset here). */
const page = (req: FakeRequest, entries: readonly { id: string }[], field: string) => {
  const start = Number(req.query.pageToken ?? 0);
  const size = Number(req.query.maxResults ?? 100);
  const chunk = entries.slice(start, start + size);
  const next = start + size < entries.length ? String(start + size) : undefined;
  return {
    [field]: chunk.map((entry) => ({ id: entry.id, threadId: entry.id })),
    ...(next && { nextPageToken: next }),
    resultSizeEstimate: entries.length,
  };
};

/** The message a `raw` holds: its headers, and its body decoded. */
const decode = (raw: string) => {
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const headers = Object.fromEntries(
    head.split('\r\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
  );
  return { headers, body: Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8') };
};

/** The body of the last request a route answered. */
const lastBody = <T>(route: string): T => {
  const request = google.vendor.calls(route).at(-1);
  if (!request) throw new Error(`no request reached ${route}`);
  return request.body as T;
};

const sentRaw = () => lastBody<{ raw: string }>(`POST ${ME}/messages/send`).raw;

let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle({
    [`GET ${ME}/messages`]: (req) => {
      const matching = MESSAGES.filter(
        (message) =>
          (!req.query.labelIds || message.labelIds.includes(req.query.labelIds)) &&
          // The one search this fake understands.
          (req.query.q === undefined || (req.query.q === 'subject:"Invoice 5"' && message.id === 'm5')),
      );
      return page(req, matching, 'messages');
    },
    [`GET ${ME}/messages/:id`]: (req) => {
      const message = MESSAGES.find((entry) => entry.id === req.params.id);
      if (!message) return googleError(404, 'Requested entity was not found.', 'NOT_FOUND', 'notFound');
      if (req.query.format === 'metadata') {
        const wanted = (req.query.metadataHeaders ?? '').split(',');
        return { ...message, payload: { headers: message.payload.headers.filter((h) => wanted.includes(h.name)) } };
      }
      return { ...message, payload: { ...message.payload, mimeType: 'text/plain', body: { data: 'SGk' } } };
    },
    [`GET ${ME}/threads`]: (req) =>
      page(
        req,
        MESSAGES.map((m) => ({ id: m.threadId })),
        'threads',
      ),
    [`GET ${ME}/threads/:id`]: (req) => {
      const message = MESSAGES.find((entry) => entry.threadId === req.params.id);
      return message
        ? { id: req.params.id, messages: [message] }
        : googleError(404, 'Requested entity was not found.', 'NOT_FOUND', 'notFound');
    },
    [`POST ${ME}/messages/send`]: (req) =>
      (req.body as { raw?: string }).raw
        ? { id: 'sent1', threadId: (req.body as { threadId?: string }).threadId ?? 'sent1', labelIds: ['SENT'] }
        : googleError(
            400,
            "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
            'INVALID_ARGUMENT',
            'invalidArgument',
          ),
    [`POST ${ME}/drafts`]: () => ({ id: 'r-123', message: { id: 'd1', threadId: 'd1', labelIds: ['DRAFT'] } }),
    [`POST ${ME}/messages/:id/trash`]: (req) => ({ id: req.params.id, labelIds: ['TRASH'] }),
    [`POST ${ME}/messages/:id/modify`]: (req) => ({
      id: req.params.id,
      labelIds: ['INBOX', ...(req.body as { addLabelIds: string[] }).addLabelIds],
    }),
    [`GET ${ME}/labels`]: () => ({
      labels: [
        { id: 'INBOX', name: 'INBOX', type: 'system' },
        { id: 'Label_7', name: 'Receipts', type: 'user' },
      ],
    }),
    [`GET ${ME}/settings/sendAs`]: () => ({
      sendAs: [
        { sendAsEmail: 'sales@example.com', displayName: 'Sales', signature: '' },
        {
          sendAsEmail: 'ann@example.com',
          displayName: 'Ann Lee',
          signature: '<div>Ann<br>&amp; team</div>',
          isPrimary: true,
        },
      ],
    }),
  });
});
afterAll(() => google.close());

describe('gmail: keeps Automatisch keys', () => {
  it('app, client settings, triggers and actions with their arguments', () => {
    const steps = (list: readonly { key: string; arguments: readonly { key: string }[] }[]) =>
      Object.fromEntries(list.map((step) => [step.key, step.arguments.map((argument) => argument.key)]));
    expect(gmail.key).toBe('gmail');
    expect(gmail.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(steps(gmail.manifest.triggers)).toEqual({ newEmails: ['labelId'], newEmailsMatchingSearch: ['query'] });
    expect(steps(gmail.manifest.actions)).toEqual({
      createDraft: ['subject', 'tos', 'ccs', 'bccs', 'from', 'fromName', 'bodyType', 'emailBody', 'signature'],
      replyToEmail: [
        'threadId',
        'tos',
        'ccs',
        'bccs',
        'from',
        'fromName',
        'replyTo',
        'bodyType',
        'emailBody',
        'labelId',
      ],
      sendEmail: ['tos', 'ccs', 'bccs', 'from', 'fromName', 'replyTo', 'subject', 'bodyType', 'emailBody', 'signature'],
      sendToTrash: ['messageId'],
      starEmail: ['messageId'],
    });
    expect(Object.keys(gmail.dynamicData)).toEqual([
      'listEmails',
      'listLabels',
      'listMessages',
      'listSignatures',
      'listThreads',
    ]);
  });
});

describeGoogleConnection(() => ({
  app: gmail,
  google,
  scopes: ['https://www.googleapis.com/auth/gmail.compose', 'https://www.googleapis.com/auth/gmail.modify'],
  refreshedBy: {
    kind: 'action',
    key: 'starEmail',
    parameters: { messageId: 'm1' },
    route: `POST ${ME}/messages/:id/modify`,
  },
}));

describe('gmail: actions', () => {
  it('sends a message whose headers no variable can add to, with the signature below the body', async () => {
    const output = await runAppAction(
      gmail,
      'sendEmail',
      google.call({
        tos: 'bob@example.com, cy@example.com',
        ccs: [{ cc: 'dee@example.com' }, { cc: '' }],
        from: 'ann@example.com',
        fromName: 'Ann "A" Lee',
        replyTo: 'support@example.com',
        subject: 'Paid\r\nBcc: evil@example.com',
        emailBody: 'Thanks — received.',
        signature: '<div>Ann<br>&amp; team</div>',
      }),
    );
    expect(output).toEqual({ id: 'sent1', threadId: 'sent1', labelIds: ['SENT'] });
    const { headers, body } = decode(sentRaw());
    expect(headers).toEqual({
      From: '"Ann \\"A\\" Lee" <ann@example.com>',
      To: 'bob@example.com, cy@example.com',
      Cc: 'dee@example.com',
      'Reply-To': 'support@example.com',
      Subject: 'Paid Bcc: evil@example.com',
      'MIME-Version': '1.0',
      'Content-Type': 'text/plain; charset="UTF-8"',
      'Content-Transfer-Encoding': 'base64',
    });
    expect(body).toBe('Thanks — received.\r\n\r\nAnn\n& team');
  });

  it('encodes words outside ASCII and sends HTML as HTML', async () => {
    await runAppAction(
      gmail,
      'sendEmail',
      google.call({
        tos: ['bob@example.com'],
        fromName: 'Zoë',
        from: 'ann@example.com',
        subject: 'Reçu',
        bodyType: 'html',
        emailBody: '<b>Merci</b>',
      }),
    );
    const { headers, body } = decode(sentRaw());
    expect(headers.Subject).toBe(`=?UTF-8?B?${Buffer.from('Reçu').toString('base64')}?=`);
    expect(headers.From).toBe(`=?UTF-8?B?${Buffer.from('Zoë').toString('base64')}?= <ann@example.com>`);
    expect(headers['Content-Type']).toBe('text/html; charset="UTF-8"');
    expect(body).toBe('<b>Merci</b>');
  });

  it('needs at least one recipient to send', async () => {
    await expect(
      runAppAction(gmail, 'sendEmail', google.call({ tos: ' , ', subject: 's', emailBody: 'b' })),
    ).rejects.toMatchObject({
      name: 'InvalidParametersError',
      fields: { tos: ['is required.'] },
    });
  });

  it('creates a draft', async () => {
    const output = await runAppAction(
      gmail,
      'createDraft',
      google.call({ subject: 'Draft', tos: 'bob@example.com', emailBody: 'Later' }),
    );
    expect(output).toEqual({ id: 'r-123', message: { id: 'd1', threadId: 'd1', labelIds: ['DRAFT'] } });
    const { raw } = lastBody<{ message: { raw: string } }>(`POST ${ME}/drafts`).message;
    expect(decode(raw).headers).toMatchObject({ To: 'bob@example.com', Subject: 'Draft' });
  });

  it("replies in the thread, to the last message's sender, threaded by its Message-ID, then labels the reply", async () => {
    const output = await runAppAction(
      gmail,
      'replyToEmail',
      google.call({ threadId: 't5', emailBody: 'Got it', labelId: 'Label_7' }),
    );
    const sent = google.vendor.calls(`POST ${ME}/messages/send`).at(-1)?.body as { threadId: string; raw: string };
    expect(sent.threadId).toBe('t5');
    expect(decode(sent.raw).headers).toMatchObject({
      To: 'Shop <shop5@example.com>',
      Subject: 'Re: Invoice 5',
      'In-Reply-To': '<msg5@mail.example.com>',
      References: '<root5@mail.example.com> <msg5@mail.example.com>',
    });
    expect(google.vendor.calls(`GET ${ME}/threads/:id`).at(-1)?.query).toEqual({
      format: 'metadata',
      metadataHeaders: 'Message-ID,References,Subject,From,Reply-To',
    });
    expect(google.vendor.calls(`POST ${ME}/messages/:id/modify`).at(-1)?.body).toEqual({ addLabelIds: ['Label_7'] });
    expect(output).toEqual({ id: 'sent1', labelIds: ['INBOX', 'Label_7'] });
  });

  it("trashes and stars a message, and fails with Gmail's message for an unknown thread", async () => {
    expect(await runAppAction(gmail, 'sendToTrash', google.call({ messageId: 'm3' }))).toEqual({
      id: 'm3',
      labelIds: ['TRASH'],
    });
    expect(await runAppAction(gmail, 'starEmail', google.call({ messageId: 'm3' }))).toEqual({
      id: 'm3',
      labelIds: ['INBOX', 'STARRED'],
    });
    await expect(
      runAppAction(gmail, 'replyToEmail', google.call({ threadId: 'gone', emailBody: 'x' })),
    ).rejects.toThrow(/answered 404: Requested entity was not found\./);
  });
});

describe('gmail: triggers', () => {
  it('newEmails: the 20 newest messages of a label, in full, newest first, by message id', async () => {
    const items = await runAppTrigger(gmail, 'newEmails', google.call({ labelId: 'Label_7' }));
    expect(items).toHaveLength(20);
    expect(items.slice(0, 2).map((item) => item.id)).toEqual(['m60', 'm58']);
    expect(items[0]?.data).toMatchObject({ id: 'm60', payload: { body: { data: 'SGk' } } });
    expect(google.vendor.calls(`GET ${ME}/messages`).at(-1)?.query).toEqual({ maxResults: '20', labelIds: 'Label_7' });
    expect(google.vendor.calls(`GET ${ME}/messages/:id`).at(-1)?.query).toEqual({ format: 'full' });
  });

  it('newEmailsMatchingSearch: the messages a Gmail search finds', async () => {
    const items = await runAppTrigger(gmail, 'newEmailsMatchingSearch', google.call({ query: 'subject:"Invoice 5"' }));
    expect(items.map((item) => item.id)).toEqual(['m5']);
    expect(google.vendor.calls(`GET ${ME}/messages`).at(-1)?.query).toEqual({
      maxResults: '20',
      q: 'subject:"Invoice 5"',
    });
  });
});

describe('gmail: dynamic data', () => {
  it('lists two pages of recent messages and threads by subject', async () => {
    const messages = await loadAppDynamicData(gmail, 'listMessages', google.call());
    expect(messages).toHaveLength(50);
    expect(messages[0]).toEqual({ name: 'Invoice 60', value: 'm60' });
    expect(
      google.vendor
        .calls(`GET ${ME}/messages`)
        .slice(-2)
        .map((r) => r.query.pageToken),
    ).toEqual([undefined, '25']);
    const threads = await loadAppDynamicData(gmail, 'listThreads', google.call());
    expect(threads.slice(0, 1)).toEqual([{ name: 'Invoice 60', value: 't60' }]);
    expect(threads).toHaveLength(50);
  });

  it('lists labels, send-as addresses (the primary first) and signatures', async () => {
    expect(await loadAppDynamicData(gmail, 'listLabels', google.call())).toEqual([
      { name: 'INBOX', value: 'INBOX' },
      { name: 'Receipts', value: 'Label_7' },
    ]);
    expect(await loadAppDynamicData(gmail, 'listEmails', google.call())).toEqual([
      { name: 'Ann Lee <ann@example.com>', value: 'ann@example.com' },
      { name: 'Sales <sales@example.com>', value: 'sales@example.com' },
    ]);
    expect(await loadAppDynamicData(gmail, 'listSignatures', google.call())).toEqual([
      { name: 'ann@example.com', value: '<div>Ann<br>&amp; team</div>' },
    ]);
  });
});
