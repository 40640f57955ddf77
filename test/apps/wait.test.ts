import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { RECHECK_MS } from '../../adapters/apps/wait/waiting.js';
import type { RunControl } from '../../ports/step-runner.js';
import { FakeRun } from '../fakes/run-control.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';

const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: true, logger: new CapturingLogger() });
const runner = createStepRunner(catalog, builtInApps);
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await catalog.close();
  await sink.close();
});

const NOW = new Date('2026-05-01T10:00:00.000Z');
const MINUTE = 60_000;
const later = (ms: number) => new Date(NOW.getTime() + ms);

const smtp = () => ({
  credentials: { host: '127.0.0.1', port: sink.port, secure: false, fromEmail: 'robot@conveyor.test' },
  oauth: null,
});

const action = (
  key: string,
  parameters: Record<string, unknown>,
  run: RunControl | null,
  connection: ReturnType<typeof smtp> | null = null,
) =>
  runner.runAction({
    appKey: 'wait',
    key,
    parameters,
    connection,
    store: { get: async () => undefined, set: async () => {} },
    execution: null,
    run,
  });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('wait: waitForWebhook', () => {
  it('sleeps until its deadline, kept from its first turn, and fails once it is past', async () => {
    const run = new FakeRun();
    const step = { timeoutMinutes: 30 };
    expect(await action('waitForWebhook', step, run.control())).toEqual({ kind: 'suspend', until: later(30 * MINUTE) });
    vi.setSystemTime(later(10 * MINUTE));
    expect(await action('waitForWebhook', step, run.control())).toEqual({ kind: 'suspend', until: later(30 * MINUTE) });
    vi.setSystemTime(later(30 * MINUTE));
    expect(await action('waitForWebhook', step, run.control())).toEqual({
      kind: 'failure',
      failure: { message: 'No request reached the resume URL within 30 minutes.', retryable: false },
    });
  });

  it("outputs the request's body: an object's fields, anything else under body", async () => {
    const run = new FakeRun();
    const request = (body: unknown) => ({ method: 'POST', headers: {}, query: { a: '1' }, body });
    run.signal('webhook', request({ decision: 'ship', count: 2 }));
    expect(await action('waitForWebhook', { timeoutMinutes: 5 }, run.control('one'))).toEqual({
      kind: 'success',
      output: { decision: 'ship', count: 2 },
    });
    // Asked again (a crash after the signal was taken), the step answers the same.
    expect(await action('waitForWebhook', { timeoutMinutes: 5 }, run.control('one'))).toEqual({
      kind: 'success',
      output: { decision: 'ship', count: 2 },
    });
    run.signal('webhook', request('plain text'));
    expect(await action('waitForWebhook', { timeoutMinutes: 5 }, run.control('two'))).toEqual({
      kind: 'success',
      output: { body: 'plain text' },
    });
    run.signal('webhook', request(null));
    expect(await action('waitForWebhook', { timeoutMinutes: 5 }, run.control('three'))).toEqual({
      kind: 'success',
      output: { body: null },
    });
  });

  it('needs a time-out of a minute to a year, and a run', async () => {
    const check = (timeoutMinutes: unknown) =>
      catalog.checkStepParameters('wait', 'action', 'waitForWebhook', { timeoutMinutes });
    expect(check(undefined)).toEqual({ timeoutMinutes: ['is required.'] });
    expect(check(0)).toEqual({ timeoutMinutes: ['must be at least 1.'] });
    expect(check(525_601)).toEqual({ timeoutMinutes: ['must be at most 525600.'] });
    expect(check(525_600)).toBeNull();
    expect(await action('waitForWebhook', { timeoutMinutes: 5 }, null)).toMatchObject({
      kind: 'failure',
      failure: { message: 'This step works only while its flow runs.' },
    });
  });
});

describe('wait: waitForApproval', () => {
  it('e-mails the approve and reject links once, then outputs the answer and when it came', async () => {
    const run = new FakeRun();
    const step = { message: 'Ship order 42?', recipients: 'boss@example.com', timeoutMinutes: 60 };
    expect(await action('waitForApproval', step, run.control(), smtp())).toEqual({
      kind: 'suspend',
      until: later(60 * MINUTE),
    });
    const mail = await sink.waitFor('boss@example.com');
    expect(mail.subject).toBe('Approval requested');
    expect(mail.from).toBe('robot@conveyor.test');
    expect(mail.text).toContain('Ship order 42?');
    expect(mail.text).toContain(`Approve: ${run.resumeUrl}/approve`);
    expect(mail.text).toContain(`Reject: ${run.resumeUrl}/reject`);
    expect(mail.text).toContain(`expire at ${later(60 * MINUTE).toISOString()}`);

    vi.setSystemTime(later(5 * MINUTE));
    expect((await action('waitForApproval', step, run.control(), smtp())).kind).toBe('suspend');
    const at = later(6 * MINUTE);
    run.signal('approval', { approved: true }, at);
    expect(await action('waitForApproval', step, run.control(), smtp())).toEqual({
      kind: 'success',
      output: { approved: true, at: at.toISOString() },
    });
    expect(sink.received.filter((m) => m.to.includes('boss@example.com'))).toHaveLength(1);
  });

  it('waits without a connection or a time-out, and reads a rejection', async () => {
    const run = new FakeRun();
    expect(await action('waitForApproval', {}, run.control())).toEqual({ kind: 'suspend', until: later(RECHECK_MS) });
    run.signal('approval', { approved: false });
    expect(await action('waitForApproval', {}, run.control())).toMatchObject({
      kind: 'success',
      output: { approved: false },
    });
  });

  it('fails at once for recipients without a connection, or an e-mail the server refuses', async () => {
    expect(await action('waitForApproval', { recipients: 'a@example.com' }, new FakeRun().control())).toEqual({
      kind: 'failure',
      failure: {
        message: 'Choose an SMTP connection to e-mail the recipients, or leave the recipients empty.',
        retryable: false,
      },
    });
    sink.refuse('gone@example.com');
    const refused = await action(
      'waitForApproval',
      { recipients: 'gone@example.com' },
      new FakeRun().control(),
      smtp(),
    );
    expect(refused).toMatchObject({
      kind: 'failure',
      failure: {
        message: expect.stringMatching(/^The e-mail could not be sent: .*mailbox unavailable/),
        retryable: false,
      },
    });
  });

  it('fails once its time-out passed without an answer', async () => {
    const run = new FakeRun();
    await action('waitForApproval', { timeoutMinutes: 1 }, run.control());
    vi.setSystemTime(later(MINUTE));
    expect(await action('waitForApproval', { timeoutMinutes: 1 }, run.control())).toEqual({
      kind: 'failure',
      failure: { message: 'Nobody approved or rejected within 1 minute.', retryable: false },
    });
  });
});

describe('wait: waitForForm', () => {
  it("e-mails the form's link and outputs the answers", async () => {
    const run = new FakeRun();
    const step = { formId: 'f-1', recipients: 'clerk@example.com', message: 'Please fill this in.' };
    expect((await action('waitForForm', step, run.control(), smtp())).kind).toBe('suspend');
    const mail = await sink.waitFor('clerk@example.com');
    expect(mail.text).toContain(`Fill in the form: ${run.resumeUrl}/forms/f-1`);
    run.signal('form', { formId: 'f-1', answers: { name: 'Ada', size: 3 } });
    expect(await action('waitForForm', step, run.control(), smtp())).toEqual({
      kind: 'success',
      output: { name: 'Ada', size: 3 },
    });
  });
});

describe('wait: the app', () => {
  it('takes an SMTP connection, which its steps do without', () => {
    const app = catalog.find('wait');
    expect(app?.auth).toMatchObject({ kind: 'fields', optional: true });
    expect(app?.auth.fields.map((f) => f.key)).toEqual(catalog.find('smtp')?.auth.fields.map((f) => f.key));
    expect(catalog.find('smtp')?.auth.optional).toBeUndefined();
  });
});

describe('wait: listForms', () => {
  it('lists the flow owner’s forms for waitForForm, as the forms app does', async () => {
    const options = await catalog.dynamicData({
      appKey: 'wait',
      key: 'listForms',
      parameters: {},
      connection: null,
      owner: {
        flows: async () => [],
        agents: async () => [],
        forms: async () => [{ id: 'f1', name: 'Leave request' }],
      },
    });
    expect(options).toEqual([{ name: 'Leave request', value: 'f1' }]);
  });
});
