import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithApp, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { imap } from '../../adapters/apps/imap/index.js';
import { createAppCatalog } from '../../adapters/apps/index.js';
import { createMemoryStore, type ListenerMessage, type Store } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { dovecotAvailable, type PrivateDovecot, startDovecot } from '../support/dovecot.js';

describe('imap: connection fields', () => {
  const catalog = createAppCatalog({ apps: [imap], allowPrivateNetworks: false, logger: new CapturingLogger() });
  afterAll(() => catalog.close());

  it('need host, user and password; port 993 and TLS by default', () => {
    expect(catalog.parseAuthFields('imap', { port: 'x' })).toEqual({
      ok: false,
      fields: {
        host: ['is required.'],
        port: ['must be a number.'],
        user: ['is required.'],
        password: ['is required.'],
      },
    });
    expect(catalog.parseAuthFields('imap', { host: 'mail', user: 'me', password: 'p' })).toEqual({
      ok: true,
      value: { host: 'mail', port: 993, secure: true, user: 'me', password: 'p' },
    });
  });

  it('refuse to reach loopback unless the instance allows private networks', async () => {
    const check = await catalog.verifyCredentials(
      'imap',
      { host: '127.0.0.1', port: 993, secure: true, user: 'me', password: 'hunter22' },
      null,
    );
    expect(check).toMatchObject({ ok: false, reason: expect.stringMatching(/^Refused to connect to 127\.0\.0\.1/) });
  });

  it('check the arguments of the steps', async () => {
    await expect(
      runAppAction(imap, 'flagEmail', { parameters: { uid: 'x', flag: 'two words' }, auth: {} }),
    ).rejects.toMatchObject({
      fields: { uid: ['must be a number.'], flag: ['must be a flag such as \\Flagged, or a keyword without spaces.'] },
    });
  });
});

describe.runIf(dovecotAvailable())('imap against a private Dovecot', () => {
  const user = 'alice';
  const password = `pw-${randomBytes(6).toString('hex')}`;
  let dovecot: PrivateDovecot;
  const auth = () => ({ host: '127.0.0.1', port: dovecot.port, secure: false, user, password });

  beforeAll(async () => {
    const started = Date.now();
    dovecot = await startDovecot({ [user]: password });
    expect(Date.now() - started).toBeLessThan(3000);
  });
  afterAll(() => dovecot?.remove());

  /** A session of the test's own (the "second client"), logged out after. */
  const session = async <T>(work: (client: ImapFlow) => Promise<T>): Promise<T> => {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port: dovecot.port,
      secure: false,
      auth: { user, pass: password },
      logger: false,
    });
    client.on('error', () => {});
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  };
  /** A fresh mailbox for one test. */
  const newMailbox = async () => {
    const path = `T${randomBytes(4).toString('hex')}`;
    await session((client) => client.mailboxCreate(path));
    return path;
  };
  /** Delivers a message by APPEND: for IDLE, new mail like any other. Answers its UID. */
  const deliver = async (mailbox: string, subject: string, body = `Hello from ${subject}.`) => {
    const raw = [
      'From: Bob Sender <bob@example.com>',
      `To: Alice <${user}@example.com>`,
      'Cc: carol@example.com',
      `Subject: ${subject}`,
      `Message-ID: <${subject.replace(/\W/g, '')}@example.com>`,
      'Date: Tue, 02 Jan 2024 10:00:00 +0000',
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '',
    ].join('\r\n');
    const appended = await session((client) => client.append(mailbox, raw));
    return appended ? (appended.uid ?? 0) : 0;
  };
  const flagsOf = (mailbox: string, uid: number) =>
    session(async (client) => {
      await client.mailboxOpen(mailbox, { readOnly: true });
      const message = await client.fetchOne(String(uid), { uid: true, flags: true }, { uid: true });
      return message ? [...(message.flags ?? [])].filter((flag) => flag !== '\\Recent').sort() : null;
    });
  const listen = (mailbox: string, store: Store, accept?: (message: ListenerMessage) => Promise<void>) =>
    listenWithApp(imap, 'newEmail', { auth: auth(), store, parameters: { mailbox }, ...(accept && { accept }) });

  it('verifies by logging in and out, and says when the server refuses the password', async () => {
    expect(await verifyAppAuth(imap, auth())).toMatchObject({ ok: true, screenName: `${user}@127.0.0.1` });
    const logger = new CapturingLogger();
    const refused = await verifyAppAuth(imap, { ...auth(), password: 'wrong-secret-pw' }, { logger });
    expect(refused).toEqual({
      ok: false,
      reason: 'The IMAP server refused the user or password: Authentication failed.',
    });
    expect(logger.text()).not.toContain('wrong-secret-pw');
    const closed = await verifyAppAuth(imap, { ...auth(), port: 1 });
    expect(closed).toMatchObject({ ok: false, reason: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('lists the mailboxes for the dropdowns', async () => {
    const mailbox = await newMailbox();
    const catalog = createAppCatalog({ apps: [imap], allowPrivateNetworks: true, logger: new CapturingLogger() });
    try {
      const options = await catalog.dynamicData({
        appKey: 'imap',
        key: 'listMailboxes',
        parameters: {},
        connection: { credentials: auth(), oauth: null },
      });
      expect(options).toEqual(
        expect.arrayContaining([
          { name: 'INBOX', value: 'INBOX' },
          { name: mailbox, value: mailbox },
        ]),
      );
    } finally {
      await catalog.close();
    }
  });

  it('run answers the latest message, decoded, without marking it read; [] for an empty mailbox', async () => {
    const mailbox = await newMailbox();
    const sample = () => runAppTrigger(imap, 'newEmail', { auth: auth(), parameters: { mailbox } });
    expect(await sample()).toEqual([]);
    await deliver(mailbox, 'older');
    const raw = [
      'From: =?UTF-8?Q?Z=C3=B6e?= <zoe@example.com>',
      'To: alice@example.com',
      'Subject: =?UTF-8?B?Q2Fmw6kgbWVudQ==?=',
      'Message-ID: <menu@example.com>',
      'Date: Wed, 03 Jan 2024 12:30:00 +0100',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="outer"',
      '',
      '--outer',
      'Content-Type: multipart/alternative; boundary="alt"',
      '',
      '--alt',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Caf=C3=A9 au lait =E2=82=AC2, a line that is long enough to be wrapped by quoted-=',
      'printable.',
      '--alt',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('<p>Caf\u00e9 <b>au lait</b></p>').toString('base64'),
      '--alt--',
      '--outer',
      'Content-Type: text/plain; name="notes.txt"',
      'Content-Disposition: attachment; filename="notes.txt"',
      '',
      'not the body',
      '--outer--',
      '',
    ].join('\r\n');
    const uid = await session(async (client) => (await client.append(mailbox, raw)) || null).then((a) => a?.uid);
    const [item] = await sample();
    const data = item?.data as Record<string, unknown>;
    expect(item?.id).toBe(`${data.uidValidity}:${uid}`);
    expect(data).toEqual({
      uid,
      uidValidity: expect.any(Number),
      mailbox,
      messageId: '<menu@example.com>',
      subject: 'Café menu',
      from: { name: 'Zöe', address: 'zoe@example.com' },
      to: [{ name: '', address: 'alice@example.com' }],
      cc: [],
      date: '2024-01-03T11:30:00.000Z',
      text: 'Café au lait €2, a line that is long enough to be wrapped by quoted-printable.',
      html: '<p>Café <b>au lait</b></p>',
      flags: [],
      size: expect.any(Number),
    });
    expect(await flagsOf(mailbox, uid ?? 0)).toEqual([]);
  });

  it('newEmail: only mail arriving after the first open, through IDLE, each with its fields and stable id', async () => {
    const mailbox = await newMailbox();
    await deliver(mailbox, 'before');
    const store = createMemoryStore();
    const probe = listen(mailbox, store);
    await probe.subscribed();
    const first = await deliver(mailbox, 'first');
    const second = await deliver(mailbox, 'second');
    const messages = await probe.waitForMessages(2);
    const uidValidity = (messages[0]?.data as { uidValidity?: number } | undefined)?.uidValidity;
    expect(messages.map((m) => m.id)).toEqual([`${uidValidity}:${first}`, `${uidValidity}:${second}`]);
    expect(messages[0]?.data).toEqual({
      uid: first,
      uidValidity,
      mailbox,
      messageId: '<first@example.com>',
      subject: 'first',
      from: { name: 'Bob Sender', address: 'bob@example.com' },
      to: [{ name: 'Alice', address: `${user}@example.com` }],
      cc: [{ name: '', address: 'carol@example.com' }],
      date: '2024-01-02T10:00:00.000Z',
      text: 'Hello from first.',
      flags: [],
      size: expect.any(Number),
    });
    expect(await probe.stop()).toBeNull();
    // Reading did not mark it read, and a reopen goes on after the last message handed on.
    expect(await flagsOf(mailbox, first)).toEqual([]);
    const third = await deliver(mailbox, 'third');
    const again = listen(mailbox, store);
    expect((await again.waitForMessages(1))[0]?.id).toBe(`${uidValidity}:${third}`);
    await sleep(300);
    expect(again.messages).toHaveLength(1);
    expect(await again.stop()).toBeNull();
  });

  it('newEmail: a message whose emit rejects ends the session and comes again, same id, on reopen', async () => {
    const mailbox = await newMailbox();
    const store = createMemoryStore();
    const refusing = listen(mailbox, store, async () => {
      throw new Error('database away');
    });
    await refusing.subscribed();
    const uid = await deliver(mailbox, 'refused');
    expect((await refusing.ended)?.message).toBe('A new email could not be handed to the flow: database away');
    const probe = listen(mailbox, store);
    const [message] = await probe.waitForMessages(1);
    expect(message?.id).toMatch(new RegExp(`^\\d+:${uid}$`));
    expect(message?.data).toMatchObject({ subject: 'refused' });
    await probe.stop();
  });

  it('newEmail: takes one message at a time while the flow holds one', async () => {
    const mailbox = await newMailbox();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const probe = listen(mailbox, createMemoryStore(), async () => {
      calls += 1;
      await held;
    });
    await probe.subscribed();
    for (const subject of ['a', 'b', 'c']) await deliver(mailbox, subject);
    await sleep(500);
    expect(calls).toBe(1);
    release();
    const messages = await probe.waitForMessages(3);
    expect(messages.map((m) => (m.data as { subject: string }).subject)).toEqual(['a', 'b', 'c']);
    await probe.stop();
  });

  it('newEmail: a stored position of another UIDVALIDITY starts from the next new message', async () => {
    const mailbox = await newMailbox();
    await deliver(mailbox, 'old');
    const store = createMemoryStore();
    await store.set(`imap:newEmail:${mailbox}`, { uidValidity: '1', lastUid: 0 });
    const probe = listen(mailbox, store);
    await probe.subscribed();
    await deliver(mailbox, 'new');
    expect((await probe.waitForMessages(1))[0]?.data).toMatchObject({ subject: 'new' });
    await sleep(200);
    expect(probe.messages).toHaveLength(1);
    await probe.stop();
  });

  it('moves, flags and marks messages, as a second client sees', async () => {
    const mailbox = await newMailbox();
    const archive = await newMailbox();
    const uid = await deliver(mailbox, 'to act on');
    const act = (key: string, parameters: Record<string, unknown>) =>
      runAppAction(imap, key, { auth: auth(), parameters: { mailbox, uid: String(uid), ...parameters } });

    expect(await act('markAsRead', {})).toEqual({ mailbox, uid, flags: ['\\Seen'] });
    expect(await flagsOf(mailbox, uid)).toEqual(['\\Seen']);
    await act('markAsRead', { read: false });
    expect(await flagsOf(mailbox, uid)).toEqual([]);

    await act('flagEmail', {});
    await act('flagEmail', { flag: 'Invoice' });
    expect(await flagsOf(mailbox, uid)).toEqual(['Invoice', '\\Flagged']);
    expect(await act('flagEmail', { flag: '\\Flagged', remove: true })).toEqual({ mailbox, uid, flags: ['Invoice'] });

    const moved = (await act('moveEmail', { destination: archive })) as { destinationUid: number };
    expect(moved).toEqual({ mailbox, uid, destination: archive, destinationUid: expect.any(Number) });
    expect(await flagsOf(mailbox, uid)).toBeNull();
    expect(await flagsOf(archive, moved.destinationUid)).toEqual(['Invoice']);

    await expect(act('markAsRead', {})).rejects.toThrow(`There is no message with UID ${uid} in ${mailbox}.`);
    await expect(
      runAppAction(imap, 'moveEmail', {
        auth: auth(),
        parameters: { mailbox: 'NoSuchBox', uid: 1, destination: archive },
      }),
    ).rejects.toThrow("Mailbox doesn't exist: NoSuchBox");
  });

  it('newEmail: throws when the server stops, and a new listen after it starts again receives new mail', async () => {
    const mailbox = await newMailbox();
    const store = createMemoryStore();
    const probe = listen(mailbox, store);
    await probe.subscribed();
    const stopped = Date.now();
    await dovecot.stop();
    const error = await probe.ended;
    expect(Date.now() - stopped).toBeLessThan(5000);
    expect(error?.message).toMatch(/^The IMAP session watching the mailbox ended/);
    await dovecot.start();
    const again = listen(mailbox, store);
    await again.subscribed();
    const uid = await deliver(mailbox, 'after restart');
    expect((await again.waitForMessages(1))[0]?.id).toMatch(new RegExp(`:${uid}$`));
    expect(await again.stop()).toBeNull();
  });
});
