import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, headers, type NatsConnection, StringCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithApp, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { nats } from '../../adapters/apps/nats/index.js';
import type { ListenerMessage } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type PrivateServer, serviceAvailable, startPrivateServer } from '../support/services.js';

const auth = { servers: 'nats://127.0.0.1:4222' };
const run = randomBytes(4).toString('hex');
const subjectOf = (name: string) => `conveyor-test.${run}.${name}`;
const text = StringCodec();

describe('nats: connection fields', () => {
  const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
  afterAll(() => catalog.close());

  it('need servers, nats:// or tls://, without credentials in them', () => {
    expect(catalog.parseAuthFields('nats', {})).toEqual({ ok: false, fields: { servers: ['is required.'] } });
    expect(catalog.parseAuthFields('nats', { servers: 'http://a:4222' })).toEqual({
      ok: false,
      fields: { servers: ['"http://" is not a NATS scheme: use nats:// or tls://.'] },
    });
    expect(catalog.parseAuthFields('nats', { servers: 'nats://me:pw@a:4222' })).toMatchObject({
      ok: false,
      fields: { servers: ['Put the token, user and password in their own fields, not in the server address.'] },
    });
    expect(catalog.parseAuthFields('nats', { servers: 'a:4222, tls://b', token: 't' })).toMatchObject({ ok: true });
  });

  it('refuse to reach loopback unless the instance allows private networks', async () => {
    expect(await catalog.verifyCredentials('nats', { ...auth, token: 'hunter22' }, null)).toEqual({
      ok: false,
      reason:
        'Refused to connect to 127.0.0.1: private and internal network addresses are not allowed. An administrator can allow them by setting ALLOW_PRIVATE_NETWORKS=true.',
    });
  });

  it('validate subjects and names: wildcards only as whole parts, > last', async () => {
    for (const [parameters, fields] of [
      [{ subject: 'a.>.b' }, { subject: ['may use > only as the whole last part (orders.>).'] }],
      [{ subject: 'a.b*' }, { subject: ['may use * only as a whole part (orders.*.created).'] }],
      [{ subject: 'a', queueGroup: 'a b' }, { queueGroup: ['must not contain spaces, dots, *, > or slashes.'] }],
    ] as const) {
      const probe = listenWithApp(nats, 'newMessage', { auth, parameters });
      expect(await probe.ended).toMatchObject({ name: 'InvalidParametersError', fields });
    }
    const stream = listenWithApp(nats, 'newStreamMessage', { auth, parameters: { stream: 'A.B', consumer: 'c' } });
    expect(await stream.ended).toMatchObject({
      fields: { stream: ['must not contain spaces, dots, *, > or slashes.'] },
    });
  });
});

describe.runIf(await serviceAvailable('nats'))('nats against NATS on 127.0.0.1:4222', () => {
  let nc: NatsConnection;
  const stream = `CONVEYOR_TEST_${run}`;
  beforeAll(async () => {
    nc = await connect({ servers: '127.0.0.1:4222' });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [`conveyor-test.${run}.stream.>`] });
  });
  afterAll(async () => {
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => {});
    await nc.close();
  });
  const publish = async (subject: string, payload: string) => {
    await nc.jetstream().publish(subject, payload);
  };

  it('verifies by connecting and flushing, and names the connection by the server', async () => {
    const check = await verifyAppAuth(nats, auth);
    expect(check).toMatchObject({ ok: true, screenName: expect.any(String) });
    expect(check.ok && check.screenName).not.toBe('');
    expect(await verifyAppAuth(nats, { servers: 'nats://127.0.0.1:1' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/NATS server 127\.0\.0\.1:1: CONNECTION_REFUSED/),
    });
    // The first server that answers.
    expect(await verifyAppAuth(nats, { servers: 'nats://127.0.0.1:1, 127.0.0.1:4222' })).toMatchObject({ ok: true });
  });

  it('publishes a message with headers', async () => {
    const subject = subjectOf('plain');
    const subscription = nc.subscribe(subject, { max: 1 });
    await nc.flush();
    const output = await runAppAction(nats, 'publishMessage', {
      auth,
      parameters: { subject, message: '{"a":1}', headers: [{ key: 'X-Kind', value: 'test' }] },
    });
    expect(output).toEqual({ subject });
    for await (const msg of subscription) {
      expect(text.decode(msg.data)).toBe('{"a":1}');
      expect(msg.headers?.get('X-Kind')).toBe('test');
    }
    await expect(
      runAppAction(nats, 'publishMessage', { auth, parameters: { subject: 'a.*', message: 'x' } }),
    ).rejects.toThrow('The subject must not contain the wildcards * or > (publish to one subject).');
  });

  it('publishes to a stream and waits for its acknowledgement; the message id deduplicates, by default the step key', async () => {
    const subject = subjectOf('stream.published');
    const first = await runAppAction(nats, 'publishToStream', { auth, parameters: { subject, message: 'one' } });
    expect(first).toEqual({ stream, sequence: expect.any(Number), duplicate: false });
    // A retried step (the same execution and step) is stored once.
    expect(await runAppAction(nats, 'publishToStream', { auth, parameters: { subject, message: 'one' } })).toEqual({
      ...(first as object),
      duplicate: true,
    });
    const byId = { subject, message: 'two', messageId: `id-${run}` };
    const stored = await runAppAction(nats, 'publishToStream', { auth, parameters: byId, execution: null });
    expect(await runAppAction(nats, 'publishToStream', { auth, parameters: byId, execution: null })).toEqual({
      ...(stored as object),
      duplicate: true,
    });
    await expect(
      runAppAction(nats, 'publishToStream', {
        auth,
        parameters: { subject: subjectOf('nowhere'), message: 'x' },
        execution: null,
      }),
    ).rejects.toThrow(/NATS server|no responders|503/i);
  });

  it('listens on a subject: data as JSON or text, headers and reply subject', async () => {
    const probe = listenWithApp(nats, 'newMessage', { auth, parameters: { subject: subjectOf('core.*') } });
    await probe.subscribed();
    const h = headers();
    h.set('X-Kind', 'test');
    nc.publish(subjectOf('core.a'), '{"a":1}', { headers: h });
    nc.publish(subjectOf('core.b'), 'plain', { reply: 'answers.here' });
    nc.publish(subjectOf('other.c'), 'not for us');
    expect(await probe.waitForMessages(2)).toEqual([
      { data: { subject: subjectOf('core.a'), data: { a: 1 }, headers: { 'X-Kind': 'test' } } },
      { data: { subject: subjectOf('core.b'), data: 'plain', reply: 'answers.here' } },
    ]);
    expect(await probe.stop()).toBeNull();
  });

  it('shares messages within a queue group: each goes to one member', async () => {
    const subject = subjectOf('queue');
    const parameters = { subject, queueGroup: `workers-${run}` };
    const a = listenWithApp(nats, 'newMessage', { auth, parameters });
    const b = listenWithApp(nats, 'newMessage', { auth, parameters });
    await Promise.all([a.subscribed(), b.subscribed()]);
    for (let n = 0; n < 20; n++) nc.publish(subject, String(n));
    await nc.flush();
    await sleep(300);
    const got = [...a.messages, ...b.messages].map((m) => (m.data as { data: number }).data).sort((x, y) => x - y);
    expect(got).toEqual([...Array(20).keys()]);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('samples a subject for two seconds: the first message, or nothing', async () => {
    const subject = subjectOf('sample');
    const sampled = runAppTrigger(nats, 'newMessage', { auth, parameters: { subject } });
    await sleep(500);
    nc.publish(subject, 'hello');
    expect(await sampled).toEqual([{ data: { subject, data: 'hello' } }]);
    const started = Date.now();
    expect(await runAppTrigger(nats, 'newMessage', { auth, parameters: { subject } })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('consumes a stream through a durable consumer it creates, with the stream sequence as id', async () => {
    const subject = subjectOf('stream.orders');
    await publish(subject, '{"order":1}');
    const consumer = `flow-${run}-a`;
    const parameters = { stream, consumer, filterSubject: subjectOf('stream.orders') };
    const probe = listenWithApp(nats, 'newStreamMessage', { auth, parameters });
    const [first] = await probe.waitForMessages(1);
    await publish(subject, 'second');
    const [, second] = await probe.waitForMessages(2);
    expect(first).toEqual({
      id: `${stream}:${(first?.data as { sequence?: number } | undefined)?.sequence}`,
      redelivered: false,
      data: { subject, data: { order: 1 }, sequence: expect.any(Number), deliveryCount: 1 },
    });
    expect(second?.data).toMatchObject({ subject, data: 'second', deliveryCount: 1 });
    expect(await probe.stop()).toBeNull();
    const info = await (await nc.jetstreamManager()).consumers.info(stream, consumer);
    expect(info.config).toMatchObject({ ack_policy: 'explicit', max_ack_pending: 20, filter_subject: subject });
    // Acknowledged: nothing left for the consumer.
    await sleep(200);
    expect(info.num_ack_pending + info.num_pending).toBe(0);
  });

  it('naks a message whose run was refused: it comes again, redelivered, with the same id', async () => {
    const subject = subjectOf('stream.refused');
    await publish(subject, 'again');
    let refusals = 0;
    const probe = listenWithApp(nats, 'newStreamMessage', {
      auth,
      parameters: { stream, consumer: `flow-${run}-b`, filterSubject: subject },
      accept: async (message) => {
        if (!message.redelivered) {
          refusals++;
          throw new Error('database away');
        }
      },
    });
    const [message] = await probe.waitForMessages(1, 8000);
    expect(refusals).toBe(1);
    expect(message).toMatchObject({ redelivered: true, data: { data: 'again', deliveryCount: 2 } });
    expect(message?.id).toBe(`${stream}:${(message?.data as { sequence?: number } | undefined)?.sequence}`);
    expect(await probe.stop()).toBeNull();
  });

  it('takes one message at a time: while a run is not accepted, the rest wait on the server', async () => {
    const subject = subjectOf('stream.slow');
    for (let n = 1; n <= 5; n++) await publish(subject, String(n));
    const started: ListenerMessage[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const probe = listenWithApp(nats, 'newStreamMessage', {
      auth,
      parameters: { stream, consumer: `flow-${run}-c`, filterSubject: subject },
      accept: async (message) => {
        started.push(message);
        await held;
      },
    });
    await probe.subscribed();
    await sleep(500);
    expect(started).toHaveLength(1);
    release();
    const messages = await probe.waitForMessages(5);
    expect(messages.map((m) => (m.data as { data: unknown }).data)).toEqual([1, 2, 3, 4, 5]);
    await probe.stop();
  });

  it("samples a stream's last message without consuming it", async () => {
    const subject = subjectOf('stream.sampled');
    await publish(subject, 'older');
    await publish(subject, '{"newest":true}');
    const items = await runAppTrigger(nats, 'newStreamMessage', {
      auth,
      parameters: { stream, consumer: `flow-${run}-d`, filterSubject: subject },
    });
    expect(items).toEqual([
      {
        id: expect.stringMatching(`^${stream}:`),
        data: { subject, data: { newest: true }, sequence: expect.any(Number), deliveryCount: 1 },
      },
    ]);
    // Read, not consumed: no consumer was made.
    await expect((await nc.jetstreamManager()).consumers.info(stream, `flow-${run}-d`)).rejects.toThrow(/not found/);
    expect(
      await runAppTrigger(nats, 'newStreamMessage', {
        auth,
        parameters: { stream, consumer: 'x', filterSubject: subjectOf('stream.none') },
      }),
    ).toEqual([]);
  });

  it('fails on a stream that does not exist', async () => {
    const probe = listenWithApp(nats, 'newStreamMessage', {
      auth,
      parameters: { stream: `NONE_${run}`, consumer: 'c' },
    });
    expect((await probe.ended)?.message).toMatch(/stream not found/);
  });
});

describe.runIf(await serviceAvailable('nats'))('nats against a server of its own', () => {
  const directory = mkdtempSync(join(tmpdir(), 'conveyor-nats-'));
  let server: PrivateServer;
  let servers: string;
  beforeAll(async () => {
    server = await startPrivateServer('/usr/sbin/nats-server', (port) => [
      '-a',
      '127.0.0.1',
      '-p',
      String(port),
      '-js',
      '-sd',
      directory,
    ]);
    servers = `nats://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('refuses bad credentials with the server reason, never the password', async () => {
    const guarded = await startPrivateServer('/usr/sbin/nats-server', (port) => [
      '-a',
      '127.0.0.1',
      '-p',
      String(port),
      '--user',
      'ada',
      '--pass',
      'right-password',
    ]);
    try {
      const target = `nats://127.0.0.1:${guarded.port}`;
      expect(await verifyAppAuth(nats, { servers: target, user: 'ada', password: 'right-password' })).toMatchObject({
        ok: true,
        screenName: expect.stringMatching(/^ada@/),
      });
      const refused = await verifyAppAuth(nats, { servers: target, user: 'ada', password: 'wrong-password' });
      expect(refused).toMatchObject({ ok: false, reason: expect.stringMatching(/Authorization Violation/i) });
      expect(JSON.stringify(refused)).not.toContain('wrong-password');
    } finally {
      await guarded.stop();
    }
  });

  it('fails when the server stops, and new listeners receive once it is back', async () => {
    const stream = `RESTART_${run}`;
    const setup = await connect({ servers });
    await (await setup.jetstreamManager()).streams.add({ name: stream, subjects: [`restart.${run}.>`] });
    await setup.close();
    const core = listenWithApp(nats, 'newMessage', { auth: { servers }, parameters: { subject: `core.${run}` } });
    const durable = listenWithApp(nats, 'newStreamMessage', {
      auth: { servers },
      parameters: { stream, consumer: 'flow' },
    });
    await Promise.all([core.subscribed(), durable.subscribed()]);
    const stoppedAt = Date.now();
    await server.stop();
    for (const probe of [core, durable])
      expect((await probe.ended)?.message).toMatch(`NATS server 127.0.0.1:${server.port}`);
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
    await server.start();
    const core2 = listenWithApp(nats, 'newMessage', { auth: { servers }, parameters: { subject: `core.${run}` } });
    const durable2 = listenWithApp(nats, 'newStreamMessage', {
      auth: { servers },
      parameters: { stream, consumer: 'flow' },
    });
    await Promise.all([core2.subscribed(), durable2.subscribed()]);
    const publisher = await connect({ servers });
    publisher.publish(`core.${run}`, 'core back');
    await publisher.jetstream().publish(`restart.${run}.x`, 'stream back');
    await publisher.close();
    expect((await core2.waitForMessages(1))[0]?.data).toMatchObject({ data: 'core back' });
    expect((await durable2.waitForMessages(1))[0]).toMatchObject({ id: `${stream}:1`, data: { data: 'stream back' } });
    expect(await core2.stop()).toBeNull();
    expect(await durable2.stop()).toBeNull();
  });
});
