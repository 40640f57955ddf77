import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { StepRunRequest } from '../../ports/step-runner.js';
import { CapturingLogger } from '../../test/support/capturing-logger.js';
import { TEST_ICON } from '../../test/support/test-icon.js';
import { createAppCatalog } from './app-catalog.js';
import { builtInApps } from './index.js';
import {
  defineAction,
  defineApp,
  defineTrigger,
  fieldsAuth,
  noAuth,
  refuseWebhook,
  replyToWebhook,
  TemporaryError,
  text,
} from './sdk/index.js';
import { asJson, createStepRunner } from './step-runner.js';

/** Throws an error carrying the `code` (and `syscall`) it is given, as drivers do. */
const thrower = defineApp({
  key: 'thrower',
  name: 'Thrower',
  description: 'Fails the way it is told.',
  icon: TEST_ICON,
  primaryColor: '#000000',
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [
    defineAction({
      key: 'fail',
      name: 'Fail',
      description: 'Throws.',
      arguments: { code: text({ label: 'Code', required: true }), syscall: text({ label: 'Syscall' }) },
      run: async (ctx) => {
        throw Object.assign(new Error(`failed with ${ctx.parameters.code}`), ctx.parameters);
      },
    }),
    defineAction({
      key: 'busy',
      name: 'Busy',
      description: 'Says the service is busy for now.',
      arguments: {},
      run: async () => {
        throw new TemporaryError('busy, come back later', { retryAfterSeconds: 30 });
      },
    }),
  ],
});

/** An instant trigger whose vendor echoes the key it was sent, and which refuses or answers as told. */
const vendor = defineApp({
  key: 'echo-vendor',
  name: 'Echo vendor',
  description: 'Echoes.',
  icon: TEST_ICON,
  primaryColor: '#000000',
  version: 1,
  auth: fieldsAuth({
    fields: { apiKey: text({ label: 'API key', required: true, secret: true }) },
    verify: async () => ({ screenName: 'echo' }),
  }),
  triggers: [
    defineTrigger({
      key: 'event',
      name: 'Event',
      description: 'An event.',
      type: 'webhook',
      arguments: {},
      async run(ctx) {
        if (ctx.webhook?.query.answer === 'yes') return replyToWebhook({ status: 202, body: 'noted' });
        return refuseWebhook('Unsigned.');
      },
      async registerHook(ctx) {
        throw new Error(`Key ${String(ctx.auth.data.apiKey)} may not make hooks for ${ctx.webhookUrl}.`);
      },
      async unregisterHook() {},
    }),
  ],
  actions: [],
});

const apps = [...builtInApps, thrower, vendor];
const catalog = createAppCatalog({ apps, allowPrivateNetworks: true, logger: new CapturingLogger() });
const runner = createStepRunner(catalog, apps);
afterAll(() => catalog.close());

const run = async (request: Pick<StepRunRequest, 'appKey' | 'key' | 'parameters'> & { credentials?: object }) => {
  const outcome = await runner.runAction({
    ...request,
    connection: request.credentials ? { credentials: { ...request.credentials }, oauth: null } : null,
    store: { get: async () => undefined, set: async () => {} },
    execution: null,
  });
  if (outcome.kind !== 'failure') throw new Error(`expected a failure, got ${outcome.kind}`);
  return outcome.failure;
};

describe('step runner: which failures are worth another attempt', () => {
  // Nothing listens on port 9 of loopback.
  it('a server that cannot be reached, for apps with their own sockets (postgresql, smtp)', async () => {
    const postgres = await run({
      appKey: 'postgresql',
      key: 'SQLQuery',
      parameters: { queryStatement: 'SELECT 1' },
      credentials: { host: '127.0.0.1', port: 9, database: 'd', user: 'u', ssl: false },
    });
    expect(postgres).toEqual({
      message: 'connect ECONNREFUSED 127.0.0.1:9',
      retryable: true,
      details: { kind: 'network' },
    });
    const smtp = await run({
      appKey: 'smtp',
      key: 'sendEmail',
      parameters: { to: 'ada@example.com', subject: 'Hi', body: 'Hello' },
      credentials: { host: '127.0.0.1', port: 9, secure: false, fromEmail: 'robot@conveyor.test' },
    });
    expect(smtp).toMatchObject({ message: expect.stringMatching(/ECONNREFUSED/), retryable: true });
  });

  it('connections that broke off or timed out, in Node’s words or nodemailer’s', async () => {
    for (const parameters of [
      { code: 'ECONNRESET' },
      { code: 'ETIMEDOUT' },
      { code: 'EAI_AGAIN' },
      { code: 'ECONNECTION' },
      { code: 'ESOCKET', syscall: 'connect' },
    ]) {
      expect(await run({ appKey: 'thrower', key: 'fail', parameters }), parameters.code).toMatchObject({
        retryable: true,
      });
    }
  });

  it('an app’s own TemporaryError, with the wait it asks for', async () => {
    expect(await run({ appKey: 'thrower', key: 'busy', parameters: {} })).toEqual({
      message: 'busy, come back later',
      retryable: true,
      retryAfterMs: 30_000,
      details: { kind: 'temporary' },
    });
  });

  it('not the service’s refusals (SQL error, failed login, TLS error, refused recipient) nor an unknown host', async () => {
    for (const code of ['42P01', 'EAUTH', 'ESOCKET', 'EENVELOPE', 'ENOTFOUND']) {
      expect(await run({ appKey: 'thrower', key: 'fail', parameters: { code } }), code).toEqual({
        message: `failed with ${code}`,
        retryable: false,
      });
    }
  });
});

describe('step runner: instant triggers', () => {
  const connection = { credentials: { apiKey: 'key-1234567' }, oauth: null };
  const store = { get: async () => undefined, set: async () => {} };
  const trigger = (webhook: { query: Record<string, string> } | null) =>
    runner.runTrigger({
      appKey: 'echo-vendor',
      key: 'event',
      parameters: {},
      connection,
      store,
      execution: null,
      webhook: webhook && { method: 'POST', headers: {}, body: null, ...webhook },
    });

  it('a delivery may be refused or answered; a poll or a test that does so has failed', async () => {
    expect(await trigger({ query: {} })).toEqual({ kind: 'refused', reason: 'Unsigned.' });
    expect(await trigger({ query: { answer: 'yes' } })).toEqual({
      kind: 'reply',
      reply: { status: 202, headers: {}, body: 'noted' },
    });
    expect(await trigger(null)).toEqual({ kind: 'failure', failure: { message: 'Unsigned.', retryable: false } });
  });

  it('a refused registration says why, without the connection’s secrets', async () => {
    expect(runner.registersHook('echo-vendor', 'event')).toBe(true);
    expect(runner.registersHook('webhook', 'catchRawWebhook')).toBe(false);
    const outcome = await runner.registerHook({
      appKey: 'echo-vendor',
      key: 'event',
      parameters: {},
      connection,
      webhookUrl: 'https://c.test/webhooks/flows/f1',
    });
    expect(outcome).toEqual({
      kind: 'failure',
      failure: { message: 'Key [redacted] may not make hooks for https://c.test/webhooks/flows/f1.', retryable: false },
    });
  });
});

describe('asJson', () => {
  class Point {
    constructor(
      readonly x: number,
      readonly y: number,
    ) {}
  }
  const roundTrip = (value: unknown) => (value === undefined ? null : JSON.parse(JSON.stringify(value) ?? 'null'));
  const nullPrototype = Object.assign(Object.create(null) as object, { a: 1 });
  // biome-ignore lint/suspicious/noSparseArray: a hole is what this checks
  const sparse = [1, , 3];
  const values: unknown[] = [
    { a: 1, b: 'two', c: [true, null, { d: 1.5 }] },
    'text',
    42,
    null,
    undefined,
    { at: new Date(0) },
    { gone: undefined, fn: () => 1, kept: 1 },
    [undefined, () => 1, Symbol('s')],
    { n: Number.NaN, inf: Number.POSITIVE_INFINITY, negativeZero: -0 },
    sparse,
    new Map([['a', 1]]),
    new Point(1, 2),
    { nested: { toJSON: () => 'custom' } },
    nullPrototype,
    { big: 'x'.repeat(10) },
  ];

  it('gives what a JSON round trip gives, for plain and unusual values', () => {
    for (const value of values) expect(asJson(value)).toStrictEqual(roundTrip(value));
  });

  it('gives what a JSON round trip gives, for any value', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true, withSparseArray: true }), (value) => {
        expect(asJson(value)).toStrictEqual(roundTrip(value));
      }),
    );
  });

  it('keeps a plain value as it is, without copying it', () => {
    const plain = { a: [1, { b: 'c' }] };
    expect(asJson(plain)).toBe(plain);
  });

  it('refuses a cycle as the round trip does', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => asJson(cyclic)).toThrow(TypeError);
  });
});
