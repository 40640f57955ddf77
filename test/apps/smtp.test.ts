import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { TemporaryError } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import {
  GREYLISTED,
  SMTP_PASSWORD as PASSWORD,
  startAuthenticatedSink,
  UNKNOWN_MAILBOX,
  SMTP_USER as USER,
} from './support/smtp-login-sink.js';

let sink: Awaited<ReturnType<typeof startAuthenticatedSink>>;
let catalog: InProcessAppCatalog;
const logger = new CapturingLogger();

const credentials = () => ({
  host: '127.0.0.1',
  port: sink.port,
  user: USER,
  password: PASSWORD,
  secure: false,
  fromEmail: 'robot@conveyor.test',
});

beforeAll(async () => {
  sink = await startAuthenticatedSink();
  catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: true, logger });
});

afterAll(async () => {
  await catalog.close();
  await sink.close();
});

describe('smtp', () => {
  it('needs a host and a sender; the port defaults to 587', () => {
    expect(catalog.parseAuthFields('smtp', {})).toEqual({
      ok: false,
      fields: { host: ['is required.'], fromEmail: ['is required.'] },
    });
    expect(catalog.parseAuthFields('smtp', { host: 'mail', fromEmail: 'a@b.c' })).toMatchObject({
      ok: true,
      value: { port: 587, secure: false },
    });
  });

  it('verifies by logging in to the server', async () => {
    expect(await catalog.verifyCredentials('smtp', credentials(), null)).toEqual({
      ok: true,
      screenName: 'robot@conveyor.test',
      credentials: credentials(),
    });
  });

  it("fails with the server's reason for a wrong password, which it never repeats", async () => {
    const check = await catalog.verifyCredentials('smtp', { ...credentials(), password: 'wrong-password' }, null);
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining('Invalid username or password') });
    if (!check.ok) expect(check.reason).not.toContain('wrong-password');
    expect(logger.text()).not.toContain('wrong-password');
    expect(logger.text()).not.toContain(PASSWORD);
  });

  it('refuses a loopback server when the instance refuses private networks', async () => {
    const guarded = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger });
    try {
      expect(await guarded.verifyCredentials('smtp', { ...credentials(), host: 'localhost' }, null)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^Refused to connect to localhost.*ALLOW_PRIVATE_NETWORKS=true/),
      });
    } finally {
      await guarded.close();
    }
  });

  it('marks a 4xx refusal (greylisting) as temporary, and a 5xx refusal as final', async () => {
    const send = (to: string) =>
      catalog.runAction({
        appKey: 'smtp',
        key: 'sendEmail',
        parameters: { to, subject: 'Hi', body: 'Hello' },
        connection: { credentials: credentials(), oauth: null },
        execution: null,
      });
    const greylisted = send(GREYLISTED);
    await expect(greylisted).rejects.toBeInstanceOf(TemporaryError);
    await expect(greylisted).rejects.toThrow(/Greylisted/);
    const unknown = send(UNKNOWN_MAILBOX);
    await expect(unknown).rejects.toThrow(/No such user/);
    await expect(unknown).rejects.not.toBeInstanceOf(TemporaryError);
  });

  it('sends an email that arrives', async () => {
    const result = await catalog.runAction({
      appKey: 'smtp',
      key: 'sendEmail',
      parameters: {
        fromName: 'Conveyor Robot',
        to: 'ada@example.com, grace@example.com',
        cc: 'alan@example.com',
        bcc: 'hidden@example.com',
        replyTo: 'help@conveyor.test',
        subject: 'Your flow ran',
        body: 'Hello from a flow.',
      },
      connection: { credentials: credentials(), oauth: null },
      execution: { id: 'e', flowId: 'flow-1', stepId: 's', testRun: false, idempotencyKey: 'e:s' },
    });
    expect(result).toMatchObject({
      messageId: expect.stringMatching(/^<.+>$/),
      accepted: ['ada@example.com', 'grace@example.com', 'alan@example.com', 'hidden@example.com'],
      rejected: [],
    });
    const mail = sink.received.at(-1);
    expect(mail?.from).toBe('robot@conveyor.test');
    expect(mail?.to).toEqual(['ada@example.com', 'grace@example.com', 'alan@example.com', 'hidden@example.com']);
    expect(mail?.raw).toMatch(/^From: Conveyor Robot <robot@conveyor\.test>$/m);
    expect(mail?.raw).toMatch(/^Reply-To: help@conveyor\.test$/m);
    expect(mail?.raw).toMatch(/^Subject: Your flow ran$/m);
    expect(mail?.raw).not.toMatch(/^Bcc:/m);
    expect(mail?.raw).toContain('Hello from a flow.');
  });

  it('sends HTML when asked, from another sender', async () => {
    await catalog.runAction({
      appKey: 'smtp',
      key: 'sendEmail',
      parameters: {
        fromEmail: 'other@conveyor.test',
        to: 'ada@example.com',
        subject: 'Styled',
        body: '<p>Hello <b>there</b></p>',
        html: 'true',
      },
      connection: { credentials: credentials(), oauth: null },
      execution: null,
    });
    const mail = sink.received.at(-1);
    expect(mail?.from).toBe('other@conveyor.test');
    expect(mail?.raw).toMatch(/^Content-Type: text\/html/m);
    expect(mail?.raw).toContain('<p>Hello <b>there</b></p>');
  });

  it('refuses to send without recipients or subject', async () => {
    await expect(
      catalog.runAction({
        appKey: 'smtp',
        key: 'sendEmail',
        parameters: { body: 'x' },
        connection: { credentials: credentials(), oauth: null },
        execution: null,
      }),
    ).rejects.toMatchObject({ fields: { to: ['is required.'], subject: ['is required.'] } });
  });
});
