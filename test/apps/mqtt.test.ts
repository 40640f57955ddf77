import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectAsync, type IPublishPacket, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithApp, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { mqtt } from '../../adapters/apps/mqtt/index.js';
import { createMemoryStore, type ListenerMessage } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type PrivateServer, serviceAvailable, startPrivateServer } from '../support/services.js';

const auth = { url: 'mqtt://127.0.0.1:1883' };
const run = randomBytes(4).toString('hex');
const topicOf = (name: string) => `conveyor-test/${run}/${name}`;

describe('mqtt: connection fields', () => {
  const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
  afterAll(() => catalog.close());

  it('need a broker URL of mqtt, mqtts, ws or wss without credentials, and a plain client id prefix', () => {
    expect(catalog.parseAuthFields('mqtt', {})).toEqual({ ok: false, fields: { url: ['is required.'] } });
    expect(catalog.parseAuthFields('mqtt', { url: 'http://broker', clientId: 'a b' })).toEqual({
      ok: false,
      fields: {
        url: ['must start with mqtt://, mqtts://, ws:// or wss://.'],
        clientId: ['must be 1 to 32 letters, digits, - or _.'],
      },
    });
    expect(catalog.parseAuthFields('mqtt', { url: 'mqtt://me:pw@broker' })).toMatchObject({
      ok: false,
      fields: { url: ['put the username and password in their own fields, not in the broker URL.'] },
    });
    expect(catalog.parseAuthFields('mqtt', { url: 'wss://broker.example.com/mqtt', username: 'me' })).toMatchObject({
      ok: true,
    });
  });

  it('refuse to reach loopback unless the instance allows private networks', async () => {
    const check = await catalog.verifyCredentials('mqtt', { ...auth, password: 'hunter22' }, null);
    expect(check).toEqual({
      ok: false,
      reason:
        'Refused to connect to 127.0.0.1: private and internal network addresses are not allowed. An administrator can allow them by setting ALLOW_PRIVATE_NETWORKS=true.',
    });
  });

  it('validate the trigger topic: wildcards only as whole levels', async () => {
    for (const [topic, message] of [
      ['a/b#', 'may use # only as the whole last level (sensors/#).'],
      ['a/#/b', 'may use # only as the whole last level (sensors/#).'],
      ['a/b+/c', 'may use + only as a whole level (sensors/+/temperature).'],
    ]) {
      const probe = listenWithApp(mqtt, 'newMessage', { auth, parameters: { topic } });
      expect(await probe.ended).toMatchObject({ name: 'InvalidParametersError', fields: { topic: [message] } });
    }
  });
});

/** A plain client of the test's own, to publish and to look. */
const client = (url = auth.url) => connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0 });

const publish = async (topic: string, payload: string, options: { qos?: 0 | 1 | 2; retain?: boolean } = {}) => {
  const c = await client();
  try {
    await c.publishAsync(topic, payload, { qos: options.qos ?? 1, retain: options.retain ?? false });
  } finally {
    await c.endAsync();
  }
};

const firstMessage = (c: MqttClient, timeoutMs = 5000) =>
  new Promise<IPublishPacket>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no message')), timeoutMs);
    c.once('message', (_topic, _payload, packet) => {
      clearTimeout(timer);
      resolve(packet);
    });
  });

describe.runIf(await serviceAvailable('mosquitto'))('mqtt against Mosquitto on 127.0.0.1:1883', () => {
  const retained: string[] = [];
  afterAll(async () => {
    // A retained message stays on the broker until an empty one replaces it.
    for (const topic of retained) await publish(topic, '', { retain: true });
  });

  it('verifies by connecting, and names the connection user@host:port', async () => {
    expect(await verifyAppAuth(mqtt, auth)).toEqual({
      ok: true,
      screenName: '127.0.0.1:1883',
      credentials: auth,
    });
    expect(await verifyAppAuth(mqtt, { ...auth, username: 'ada' })).toMatchObject({
      ok: true,
      screenName: 'ada@127.0.0.1:1883',
    });
    expect(await verifyAppAuth(mqtt, { url: 'mqtt://127.0.0.1:1' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('publishes at QoS 0, 1 and 2, and retained', async () => {
    const topic = topicOf('publish');
    const looker = await client();
    try {
      await looker.subscribeAsync(topic, { qos: 2 });
      for (const qos of [0, 1, 2] as const) {
        const arrived = firstMessage(looker);
        const output = await runAppAction(mqtt, 'publishMessage', {
          auth,
          parameters: { topic, message: `{"n":${qos}}`, qos: String(qos) },
        });
        expect(output).toEqual({
          topic,
          qos,
          retain: false,
          ...(qos > 0 && { messageId: expect.any(Number) }),
        });
        const packet = await arrived;
        expect([packet.payload.toString(), packet.qos]).toEqual([`{"n":${qos}}`, qos]);
      }
    } finally {
      await looker.endAsync();
    }
    const kept = topicOf('kept');
    retained.push(kept);
    expect(
      await runAppAction(mqtt, 'publishMessage', { auth, parameters: { topic: kept, message: 'last', retain: true } }),
    ).toMatchObject({ topic: kept, qos: 1, retain: true });
    const later = await client();
    try {
      const arrived = firstMessage(later);
      await later.subscribeAsync(kept);
      expect((await arrived).retain).toBe(true);
    } finally {
      await later.endAsync();
    }
  });

  it('refuses to publish on a wildcard topic', async () => {
    await expect(
      runAppAction(mqtt, 'publishMessage', { auth, parameters: { topic: 'a/+/b', message: 'x' } }),
    ).rejects.toThrow('The topic must not contain the wildcards + or # (publish to one topic).');
  });

  it('samples the retained message of a topic without keeping anything, or nothing within two seconds', async () => {
    const topic = topicOf('sample');
    retained.push(topic);
    await publish(topic, '{"temperature":21.5}', { retain: true });
    expect(await runAppTrigger(mqtt, 'newMessage', { auth, parameters: { topic } })).toEqual([
      { data: { topic, payload: { temperature: 21.5 }, qos: 0, retain: true, dup: false } },
    ]);
    const started = Date.now();
    expect(await runAppTrigger(mqtt, 'newMessage', { auth, parameters: { topic: topicOf('empty/#') } })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('listens on a wildcard topic and emits each message: payload as JSON or text, retained ones too', async () => {
    const kept = topicOf('live/kept');
    retained.push(kept);
    await publish(kept, 'old news', { retain: true });
    const probe = listenWithApp(mqtt, 'newMessage', { auth, parameters: { topic: topicOf('live/#'), qos: 1 } });
    await probe.subscribed();
    await probe.waitForMessages(1);
    await publish(topicOf('live/a'), '{"a":1}');
    await publish(topicOf('live/b/c'), 'plain text', { qos: 0 });
    const messages = await probe.waitForMessages(3);
    expect(messages).toEqual([
      { redelivered: false, data: { topic: kept, payload: 'old news', qos: 1, retain: true, dup: false } },
      { redelivered: false, data: { topic: topicOf('live/a'), payload: { a: 1 }, qos: 1, retain: false, dup: false } },
      {
        redelivered: false,
        data: { topic: topicOf('live/b/c'), payload: 'plain text', qos: 0, retain: false, dup: false },
      },
    ]);
    expect(await probe.stop()).toBeNull();
  });

  it('keeps the session: what is published while the flow is closed arrives when it listens again', async () => {
    const store = createMemoryStore();
    const topic = topicOf('session');
    const first = listenWithApp(mqtt, 'newMessage', { auth, store, parameters: { topic } });
    await first.subscribed();
    expect(await first.stop()).toBeNull();
    await publish(topic, 'while away');
    const second = listenWithApp(mqtt, 'newMessage', { auth, store, parameters: { topic } });
    expect((await second.waitForMessages(1))[0]?.data).toMatchObject({ payload: 'while away' });
    expect(await second.stop()).toBeNull();
  });

  for (const qos of [1, 2] as const) {
    it(`does not acknowledge a QoS ${qos} message whose run was refused: it reopens and the broker delivers it again`, async () => {
      const store = createMemoryStore();
      const topic = topicOf(`refused${qos}`);
      const refusing = listenWithApp(mqtt, 'newMessage', {
        auth,
        store,
        parameters: { topic, qos },
        accept: async () => {
          throw new Error('database away');
        },
      });
      await refusing.subscribed();
      await publish(topic, 'keep me', { qos });
      expect((await refusing.ended)?.message).toMatch(
        `A message on ${topic} could not be accepted (database away); the subscription reopens`,
      );
      const again = listenWithApp(mqtt, 'newMessage', { auth, store, parameters: { topic, qos } });
      const [message] = await again.waitForMessages(1);
      expect(message).toMatchObject({ redelivered: true, data: { topic, payload: 'keep me', qos } });
      await sleep(300);
      expect(again.messages).toHaveLength(1);
      expect(await again.stop()).toBeNull();
      // Acknowledged now: a third opening gets nothing.
      const third = listenWithApp(mqtt, 'newMessage', { auth, store, parameters: { topic, qos } });
      await third.subscribed();
      await sleep(300);
      expect(third.messages).toEqual([]);
      await third.stop();
    });
  }

  it('takes one message at a time: while a run is not accepted, the next waits on the broker', async () => {
    const topic = topicOf('slow');
    const started: ListenerMessage[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const probe = listenWithApp(mqtt, 'newMessage', {
      auth,
      parameters: { topic },
      accept: async (message) => {
        started.push(message);
        await held;
      },
    });
    await probe.subscribed();
    for (let n = 1; n <= 5; n++) await publish(topic, String(n));
    await sleep(500);
    expect(started).toHaveLength(1);
    release();
    const messages = await probe.waitForMessages(5);
    expect(messages.map((m) => (m.data as { payload: unknown }).payload)).toEqual([1, 2, 3, 4, 5]);
    await probe.stop();
  });
});

describe.runIf(await serviceAvailable('mosquitto'))('mqtt against a Mosquitto of its own', () => {
  const directory = mkdtempSync(join(tmpdir(), 'conveyor-mosquitto-'));
  // Started as root, Mosquitto reads its files as the mosquitto user.
  chmodSync(directory, 0o755);
  let server: PrivateServer;
  let url: string;
  beforeAll(async () => {
    server = await startPrivateServer('/usr/sbin/mosquitto', (port) => {
      const config = join(directory, `mosquitto-${port}.conf`);
      writeFileSync(config, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
      return ['-c', config];
    });
    url = `mqtt://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('refuses bad credentials with the broker reason, never the password', async () => {
    const { spawnSync } = await import('node:child_process');
    const passwords = join(directory, 'users');
    spawnSync('mosquitto_passwd', ['-b', '-c', passwords, 'ada', 'right-password']);
    const guarded = await startPrivateServer('/usr/sbin/mosquitto', (port) => {
      const config = join(directory, `guarded-${port}.conf`);
      writeFileSync(config, `listener ${port} 127.0.0.1\nallow_anonymous false\npassword_file ${passwords}\n`);
      return ['-c', config];
    });
    try {
      const target = `mqtt://127.0.0.1:${guarded.port}`;
      expect(await verifyAppAuth(mqtt, { url: target, username: 'ada', password: 'right-password' })).toMatchObject({
        ok: true,
        screenName: `ada@127.0.0.1:${guarded.port}`,
      });
      const refused = await verifyAppAuth(mqtt, { url: target, username: 'ada', password: 'wrong-password' });
      expect(refused).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/Not authorized|Bad User Name or Password/i),
      });
      expect(JSON.stringify(refused)).not.toContain('wrong-password');
    } finally {
      await guarded.stop();
    }
  });

  it('fails when the broker stops, and a new listener receives once it is back', async () => {
    const topic = topicOf('restart');
    const probe = listenWithApp(mqtt, 'newMessage', { auth: { url }, parameters: { topic } });
    await probe.subscribed();
    const stoppedAt = Date.now();
    await server.stop();
    const error = await probe.ended;
    expect(error?.message).toMatch(`MQTT broker 127.0.0.1:${server.port}`);
    expect(Date.now() - stoppedAt).toBeLessThan(25_000);
    await server.start();
    const again = listenWithApp(mqtt, 'newMessage', { auth: { url }, parameters: { topic } });
    await again.subscribed();
    const c = await client(url);
    await c.publishAsync(topic, 'back again', { qos: 1 });
    await c.endAsync();
    expect((await again.waitForMessages(1))[0]?.data).toMatchObject({ topic, payload: 'back again' });
    expect(await again.stop()).toBeNull();
  });
});
