import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithApp, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { redis } from '../../adapters/apps/redis/index.js';
import { createMemoryStore, type ListenerMessage, TemporaryError } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { serviceAvailable, startPrivateServer } from '../support/services.js';

const prefix = `conveyor-test:${randomBytes(4).toString('hex')}:`;
const auth = { host: '127.0.0.1', port: 6379, database: 0, tls: false };

const admin = (port = 6379) => new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null });

/** A gate an `accept` waits at until the test opens it. */
const gate = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
};

const eventually = async (check: () => Promise<boolean>, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
};

describe('redis: connection fields', () => {
  const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
  afterAll(() => catalog.close());

  it('need a host; the port defaults to 6379, the database to 0, TLS to off', () => {
    expect(catalog.parseAuthFields('redis', { port: 'x', database: -1 })).toEqual({
      ok: false,
      fields: { host: ['is required.'], port: ['must be a number.'], database: ['must be at least 0.'] },
    });
    expect(catalog.parseAuthFields('redis', { host: 'cache' })).toEqual({
      ok: true,
      value: { host: 'cache', port: 6379, database: 0, tls: false },
    });
  });

  it('refuse to reach loopback unless the instance allows private networks', async () => {
    expect(await catalog.verifyCredentials('redis', { ...auth, password: 'hunter22' }, null)).toEqual({
      ok: false,
      reason:
        'Refused to connect to 127.0.0.1: private and internal network addresses are not allowed. An administrator can allow them by setting ALLOW_PRIVATE_NETWORKS=true.',
    });
  });
});

describe.runIf(await serviceAvailable('redis'))('redis against 127.0.0.1:6379', () => {
  const client = admin();
  const run = (key: string, parameters: Record<string, unknown>) => runAppAction(redis, key, { auth, parameters });

  beforeAll(() => client.connect());
  afterAll(async () => {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    client.disconnect();
  });

  describe('connection', () => {
    it('verifies with PING and names the connection host:port/database', async () => {
      expect(await verifyAppAuth(redis, auth)).toEqual({
        ok: true,
        screenName: '127.0.0.1:6379/0',
        credentials: auth,
      });
      expect(await verifyAppAuth(redis, { ...auth, database: 3 })).toMatchObject({
        ok: true,
        screenName: '127.0.0.1:6379/3',
      });
    });

    it("fails with the server's reason for refused credentials and a database out of range, never the password", async () => {
      const logger = new CapturingLogger();
      const refused = await verifyAppAuth(
        redis,
        { ...auth, username: 'nobody', password: 'not-logged-secret' },
        { logger },
      );
      expect(refused).toEqual({ ok: false, reason: expect.stringMatching(/^WRONGPASS/) });
      expect(logger.text()).not.toContain('not-logged-secret');
      expect(await verifyAppAuth(redis, { ...auth, database: 100_000 })).toEqual({
        ok: false,
        reason: 'ERR DB index is out of range',
      });
    });

    it('fails with the connection error when nothing listens', async () => {
      expect(await verifyAppAuth(redis, { ...auth, port: 1 })).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^Redis at 127\.0\.0\.1:1: .*ECONNREFUSED/),
      });
      const failure = runAppAction(redis, 'getValue', { auth: { ...auth, port: 1 }, parameters: { key: 'k' } });
      await expect(failure).rejects.toBeInstanceOf(TemporaryError);
    });
  });

  describe('actions', () => {
    it('set, get and delete values, with an expiry and only when new', async () => {
      const key = `${prefix}value`;
      expect(await run('getValue', { key })).toEqual({ key, value: null, exists: false });
      expect(await run('setValue', { key, value: 'first' })).toEqual({ key, set: true });
      expect(await run('setValue', { key, value: 'second', onlyIfNew: true })).toEqual({ key, set: false });
      expect(await run('getValue', { key })).toEqual({ key, value: 'first', exists: true });
      expect(await run('setValue', { key, value: 'brief', ttlSeconds: 60 })).toEqual({ key, set: true });
      expect(await client.ttl(key)).toBeGreaterThan(50);
      expect(await run('deleteKey', { key })).toEqual({ key, deleted: true });
      expect(await run('deleteKey', { key })).toEqual({ key, deleted: false });
      expect(await run('setValue', { key, value: 'new', onlyIfNew: 'true' })).toEqual({ key, set: true });
    });

    it('increment by whole numbers and by fractions', async () => {
      const key = `${prefix}counter`;
      expect(await run('increment', { key })).toEqual({ key, value: 1 });
      expect(await run('increment', { key, by: '41' })).toEqual({ key, value: 42 });
      expect(await run('increment', { key, by: -2.5 })).toEqual({ key, value: 39.5 });
      await expect(run('increment', { key, by: 'x' })).rejects.toMatchObject({ fields: { by: ['must be a number.'] } });
    });

    it('push to and pop from either end of a list', async () => {
      const list = `${prefix}list`;
      expect(await run('pushToList', { list, value: 'a' })).toEqual({ length: 1 });
      expect(await run('pushToList', { list, value: 'b' })).toEqual({ length: 2 });
      expect(await run('pushToList', { list, value: 'z', side: 'left' })).toEqual({ length: 3 });
      expect(await client.lrange(list, 0, -1)).toEqual(['z', 'a', 'b']);
      expect(await run('popFromList', { list })).toEqual({ value: 'z', empty: false });
      expect(await run('popFromList', { list, side: 'right' })).toEqual({ value: 'b', empty: false });
      expect(await run('popFromList', { list })).toEqual({ value: 'a', empty: false });
      expect(await run('popFromList', { list })).toEqual({ value: null, empty: true });
      await expect(run('popFromList', { list, side: 'middle' })).rejects.toMatchObject({
        fields: { side: ['must be one of: left, right.'] },
      });
    });

    it('add entries to a stream, trimming it to about the length asked', async () => {
      const stream = `${prefix}added`;
      const added = await run('addToStream', {
        stream,
        fields: [
          { key: 'sku', value: 'a-1' },
          { key: 'qty', value: '2' },
        ],
      });
      expect(added).toEqual({ stream, id: expect.stringMatching(/^\d+-\d+$/) });
      expect(await client.xrange(stream, '-', '+')).toEqual([
        [(added as { id: string }).id, ['sku', 'a-1', 'qty', '2']],
      ]);
      for (let n = 0; n < 300; n++) await client.xadd(stream, '*', 'n', String(n));
      await run('addToStream', { stream, fields: [{ key: 'n', value: 'last' }], maxLength: 10 });
      const length = await client.xlen(stream);
      expect(length).toBeGreaterThanOrEqual(10);
      expect(length).toBeLessThan(301);
      await expect(run('addToStream', { stream, fields: [] })).rejects.toMatchObject({
        fields: { fields: ['is required.'] },
      });
    });

    it('publish a message and count its receivers', async () => {
      const channel = `${prefix}published`;
      expect(await run('publishMessage', { channel, message: 'nobody hears' })).toEqual({ receivers: 0 });
      const subscriber = admin();
      await subscriber.connect();
      await subscriber.subscribe(channel);
      const heard = new Promise<string>((resolve) => subscriber.once('message', (_: string, m: string) => resolve(m)));
      expect(await run('publishMessage', { channel, message: '{"a":1}' })).toEqual({ receivers: 1 });
      expect(await heard).toBe('{"a":1}');
      subscriber.disconnect();
    });

    it("fail with the server's error (not a temporary one) on a key of the wrong type", async () => {
      const key = `${prefix}typed`;
      await client.set(key, 'text');
      const failure = run('pushToList', { list: key, value: 'x' });
      await expect(failure).rejects.toThrow(/^WRONGTYPE/);
      await expect(failure).rejects.not.toBeInstanceOf(TemporaryError);
      await expect(run('setValue', { key, value: 'v', ttlSeconds: 0 })).rejects.toMatchObject({
        fields: { ttlSeconds: ['must be at least 1.'] },
      });
    });
  });

  describe('trigger newStreamEntry', () => {
    const listen = (
      stream: string,
      extra: { group?: string; store?: ReturnType<typeof createMemoryStore> } & Parameters<
        typeof listenWithApp
      >[2] = {},
    ) =>
      listenWithApp(redis, 'newStreamEntry', {
        auth,
        ...extra,
        parameters: { stream, group: extra.group ?? 'flows', ...extra.parameters },
      });

    it('starts with new entries, as { stream, id, fields }, and acknowledges each once accepted', async () => {
      const stream = `${prefix}orders`;
      await client.xadd(stream, '*', 'old', 'entry');
      const probe = listen(stream);
      await probe.subscribed();
      const first = await client.xadd(stream, '*', 'sku', 'a-1', 'qty', '2');
      const second = await client.xadd(stream, '*', 'json', '{"a":1}');
      const messages = await probe.waitForMessages(2);
      expect(messages).toEqual([
        { id: `${stream}:${first}`, data: { stream, id: first, fields: { sku: 'a-1', qty: '2' } } },
        { id: `${stream}:${second}`, data: { stream, id: second, fields: { json: '{"a":1}' } } },
      ]);
      await eventually(async () => ((await client.xpending(stream, 'flows')) as [number])[0] === 0);
      expect(await probe.stop()).toBeNull();
      expect(probe.messages).toHaveLength(2);
    });

    it('holds at most COUNT entries unacknowledged while emit waits, and acknowledges none before', async () => {
      const stream = `${prefix}held`;
      const held = gate();
      let asked = 0;
      for (let n = 1; n <= 25; n++) await client.xadd(stream, '*', 'n', String(n));
      const probe = listen(stream, {
        parameters: { startFrom: 'all' },
        accept: async () => {
          asked++;
          await held.opened;
        },
      });
      await eventually(async () => asked === 1);
      await sleep(300);
      expect(asked).toBe(1);
      expect(((await client.xpending(stream, 'flows')) as [number])[0]).toBe(10);
      held.open();
      const messages = await probe.waitForMessages(25);
      expect(messages.map((m) => (m.data as { fields: { n: string } }).fields.n)).toEqual(
        Array.from({ length: 25 }, (_, i) => String(i + 1)),
      );
      await eventually(async () => ((await client.xpending(stream, 'flows')) as [number])[0] === 0);
      await probe.stop();
    });

    it('delivers an entry whose emit was refused again when reopened, marked redelivered, with the same id', async () => {
      const stream = `${prefix}refused`;
      const store = createMemoryStore();
      const first = listen(stream, {
        store,
        accept: async (message: ListenerMessage) => {
          if ((message.data as { fields: { n: string } }).fields.n === '2') throw new Error('database away');
        },
      });
      await first.subscribed();
      const ids = [];
      for (const n of ['1', '2', '3']) ids.push(await client.xadd(stream, '*', 'n', n));
      await first.waitForMessages(2);
      expect(first.messages.map((m) => m.id)).toEqual([`${stream}:${ids[0]}`, `${stream}:${ids[2]}`]);
      await eventually(async () => ((await client.xpending(stream, 'flows')) as [number])[0] === 1);
      await first.stop();

      const again = listen(stream, { store });
      const [redelivered] = await again.waitForMessages(1);
      expect(redelivered).toEqual({
        id: `${stream}:${ids[1]}`,
        redelivered: true,
        data: { stream, id: ids[1], fields: { n: '2' } },
      });
      await eventually(async () => ((await client.xpending(stream, 'flows')) as [number])[0] === 0);
      await again.stop();
    });

    it('claims entries another consumer left pending for five minutes, marked redelivered', async () => {
      const stream = `${prefix}abandoned`;
      await client.xgroup('CREATE', stream, 'flows', '$', 'MKSTREAM');
      const [stale, fresh] = [await client.xadd(stream, '*', 'n', '1'), await client.xadd(stream, '*', 'n', '2')];
      await client.xreadgroup('GROUP', 'flows', 'gone', 'COUNT', 2, 'STREAMS', stream, '>');
      await client.xclaim(stream, 'flows', 'gone', 0, stale ?? '', 'IDLE', 6 * 60_000);
      const probe = listen(stream);
      expect(await probe.waitForMessages(1)).toEqual([
        { id: `${stream}:${stale}`, redelivered: true, data: { stream, id: stale, fields: { n: '1' } } },
      ]);
      await eventually(async () => ((await client.xpending(stream, 'flows')) as [number])[0] === 1);
      const [left] = (await client.xpending(stream, 'flows', '-', '+', 10)) as [string, string][];
      expect(left?.slice(0, 2)).toEqual([fresh, 'gone']);
      await probe.stop();
    });

    it('reads entries already in the stream with startFrom all, as the consumer named', async () => {
      const stream = `${prefix}backlog`;
      await client.xadd(stream, '*', 'n', '1');
      await client.xadd(stream, '*', 'n', '2');
      const probe = listen(stream, { group: 'everything', parameters: { startFrom: 'all', consumer: 'worker-1' } });
      expect((await probe.waitForMessages(2)).map((m) => m.redelivered)).toEqual([undefined, undefined]);
      const consumers = (await client.xinfo('CONSUMERS', stream, 'everything')) as unknown[][];
      expect(consumers.map((c) => c[1])).toEqual(['worker-1']);
      await probe.stop();
    });

    it('closes promptly when stopped while blocked in XREADGROUP', async () => {
      const probe = listen(`${prefix}quiet`);
      await probe.subscribed();
      await sleep(300);
      const started = Date.now();
      expect(await probe.stop()).toBeNull();
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it("answers the stream's last entry as a sample, consuming nothing", async () => {
      const stream = `${prefix}sampled`;
      expect(await runAppTrigger(redis, 'newStreamEntry', { auth, parameters: { stream, group: 'g' } })).toEqual([]);
      await client.xadd(stream, '*', 'n', '1');
      const last = await client.xadd(stream, '*', 'n', '2');
      expect(await runAppTrigger(redis, 'newStreamEntry', { auth, parameters: { stream, group: 'g' } })).toEqual([
        { id: `${stream}:${last}`, data: { stream, id: last, fields: { n: '2' } } },
      ]);
      expect(await client.xinfo('GROUPS', stream)).toEqual([]);
    });
  });

  describe('trigger newPubSubMessage', () => {
    it('hands each message over in order, one at a time, JSON parsed or as text', async () => {
      const channel = `${prefix}events`;
      const held = gate();
      let inFlight = 0;
      let most = 0;
      const probe = listenWithApp(redis, 'newPubSubMessage', {
        auth,
        parameters: { channel },
        accept: async () => {
          most = Math.max(most, ++inFlight);
          await held.opened;
          inFlight--;
        },
      });
      await probe.subscribed();
      expect(await client.publish(channel, '{"order":1}')).toBe(1);
      await client.publish(channel, 'plain text');
      await client.publish(channel, '3');
      await sleep(100);
      held.open();
      expect(await probe.waitForMessages(3)).toEqual([
        { data: { channel, message: { order: 1 } } },
        { data: { channel, message: 'plain text' } },
        { data: { channel, message: 3 } },
      ]);
      expect(most).toBe(1);
      const started = Date.now();
      expect(await probe.stop()).toBeNull();
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('subscribes to a pattern and names the pattern matched', async () => {
      const probe = listenWithApp(redis, 'newPubSubMessage', {
        auth,
        parameters: { channel: `${prefix}shop.*`, pattern: true },
      });
      await probe.subscribed();
      await client.publish(`${prefix}shop.orders`, 'x');
      await client.publish(`${prefix}other`, 'y');
      expect(await probe.waitForMessages(1)).toEqual([
        { data: { channel: `${prefix}shop.orders`, pattern: `${prefix}shop.*`, message: 'x' } },
      ]);
      await sleep(100);
      expect(probe.messages).toHaveLength(1);
      await probe.stop();
    });

    it('answers no sample: pub/sub keeps nothing', async () => {
      expect(await runAppTrigger(redis, 'newPubSubMessage', { auth, parameters: { channel: 'c' } })).toEqual([]);
    });
  });
});

describe.runIf(await serviceAvailable('redis'))('redis listeners across a server restart', () => {
  it('throw soon after the server stops, and a new listen receives once it is back', async () => {
    const server = await startPrivateServer('/usr/bin/redis-server', (port) => [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    const privateAuth = { ...auth, port: server.port };
    const parameters = { stream: 'restart-stream', group: 'flows' };
    try {
      const streamProbe = listenWithApp(redis, 'newStreamEntry', { auth: privateAuth, parameters });
      const channelProbe = listenWithApp(redis, 'newPubSubMessage', {
        auth: privateAuth,
        parameters: { channel: 'restart-channel' },
      });
      await Promise.all([streamProbe.subscribed(), channelProbe.subscribed()]);
      const before = admin(server.port);
      await before.connect();
      await before.xadd('restart-stream', '*', 'n', '1');
      await before.publish('restart-channel', 'one');
      await Promise.all([streamProbe.waitForMessages(1), channelProbe.waitForMessages(1)]);
      before.disconnect();

      const stopped = Date.now();
      await server.stop();
      const [streamEnd, channelEnd] = await Promise.all([streamProbe.ended, channelProbe.ended]);
      expect(Date.now() - stopped).toBeLessThan(5000);
      expect(streamEnd).toBeInstanceOf(TemporaryError);
      expect(streamEnd?.message).toMatch(new RegExp(`^Redis at 127\\.0\\.0\\.1:${server.port}: `));
      expect(channelEnd).toBeInstanceOf(TemporaryError);

      await server.start();
      const reopened = listenWithApp(redis, 'newStreamEntry', { auth: privateAuth, parameters });
      await reopened.subscribed();
      const after = admin(server.port);
      await after.connect();
      const id = await after.xadd('restart-stream', '*', 'n', '2');
      expect(await reopened.waitForMessages(1)).toEqual([
        { id: `restart-stream:${id}`, data: { stream: 'restart-stream', id, fields: { n: '2' } } },
      ]);
      after.disconnect();
      await reopened.stop();
    } finally {
      await server.stop();
    }
  });
});
