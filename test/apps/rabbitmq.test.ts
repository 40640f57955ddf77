import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithApp, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { rabbitmq } from '../../adapters/apps/rabbitmq/index.js';
import { type ListenerMessage, TemporaryError } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { brokerConnectionsNamed, LOCAL_AMQP_URL, rabbitmqctl } from '../support/rabbitmq.js';
import { serviceAvailable } from '../support/services.js';

const BROKER = LOCAL_AMQP_URL;
const auth = { url: BROKER };
const BLOCKED =
  'Refused to connect to 127.0.0.1: private and internal network addresses are not allowed. An administrator can allow them by setting ALLOW_PRIVATE_NETWORKS=true.';

describe('rabbitmq: connection fields', () => {
  const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
  afterAll(() => catalog.close());

  it('need an amqp:// or amqps:// URL, without repeating it', () => {
    const invalid = { ok: false, fields: { url: ['must be an amqp:// or amqps:// URL with a host.'] } };
    expect(catalog.parseAuthFields('rabbitmq', { url: 'http://guest:hunter22@127.0.0.1' })).toEqual(invalid);
    expect(catalog.parseAuthFields('rabbitmq', { url: 'localhost:5672' })).toEqual(invalid);
    expect(catalog.parseAuthFields('rabbitmq', {})).toEqual({ ok: false, fields: { url: ['is required.'] } });
    expect(catalog.parseAuthFields('rabbitmq', { url: 'amqps://u:p@mq.example.com/v' })).toMatchObject({ ok: true });
  });

  it('refuse to reach loopback unless the instance allows private networks', async () => {
    expect(await catalog.verifyCredentials('rabbitmq', auth, null)).toEqual({ ok: false, reason: BLOCKED });
  });
});

const eventually = async (check: () => Promise<boolean>, what: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
};

describe.runIf(await serviceAvailable('rabbitmq'))('rabbitmq against the machine broker', () => {
  let admin: ChannelModel;
  let channel: Channel;
  const queues: string[] = [];

  /** A fresh queue of this test's own, deleted after the file. */
  const newQueue = async () => {
    const name = `conveyor-test-${randomBytes(5).toString('hex')}`;
    await channel.assertQueue(name, { durable: false });
    queues.push(name);
    return name;
  };
  /** The next message of the queue, taken (acknowledged). */
  const take = async (queue: string) => {
    const message = await channel.get(queue, { noAck: true });
    if (!message) throw new Error(`queue ${queue} is empty`);
    return message;
  };
  const ready = async (queue: string) => (await channel.checkQueue(queue)).messageCount;
  const send = (queue: string, content: string, options: amqp.Options.Publish = {}) =>
    channel.sendToQueue(queue, Buffer.from(content), options);
  const publish = (parameters: Record<string, unknown>) =>
    runAppAction(rabbitmq, 'publishMessage', { auth, parameters });

  beforeAll(async () => {
    admin = await amqp.connect(BROKER);
    channel = await admin.createChannel();
  });

  afterAll(async () => {
    for (const queue of queues) await channel.deleteQueue(queue).catch(() => {});
    await admin?.close();
  });

  describe('connection', () => {
    it('verifies by opening a connection, named user@host:port/vhost', async () => {
      expect(await verifyAppAuth(rabbitmq, auth)).toEqual({
        ok: true,
        screenName: 'guest@127.0.0.1:5672/',
        credentials: auth,
      });
    });

    it('answers the broker refusing a password, a virtual host, and a port nothing listens on', async () => {
      const logger = new CapturingLogger();
      const badPassword = await verifyAppAuth(
        rabbitmq,
        { url: 'amqp://guest:not-the-password@127.0.0.1:5672' },
        { logger },
      );
      expect(badPassword).toEqual({ ok: false, reason: expect.stringMatching(/ACCESS_REFUSED - Login was refused/) });
      expect(JSON.stringify(badPassword) + logger.text()).not.toContain('not-the-password');
      expect(await verifyAppAuth(rabbitmq, { url: `${BROKER}/no-such-vhost` })).toEqual({
        ok: false,
        reason:
          'RabbitMQ at 127.0.0.1:5672/no-such-vhost refused the virtual host "no-such-vhost": it does not exist, or the user may not use it.',
      });
      expect(await verifyAppAuth(rabbitmq, { url: 'amqp://guest:guest@127.0.0.1:1' })).toEqual({
        ok: false,
        reason: 'Could not connect to RabbitMQ at 127.0.0.1:1/: connect ECONNREFUSED 127.0.0.1:1',
      });
    });
  });

  describe('publishMessage', () => {
    it('publishes through a confirm channel, labelling JSON, with headers, persistence and the message id', async () => {
      const queue = await newQueue();
      const result = await publish({
        routingKey: queue,
        message: '{"order":1}',
        headers: [{ key: 'source', value: 'test' }],
        messageId: 'order-1',
      });
      expect(result).toEqual({ published: true, exchange: '', routingKey: queue, messageId: 'order-1' });
      const got = await take(queue);
      expect(got.content.toString()).toBe('{"order":1}');
      expect(got.properties).toMatchObject({
        contentType: 'application/json',
        headers: { source: 'test' },
        messageId: 'order-1',
        deliveryMode: 2,
        appId: 'conveyor',
      });
    });

    it("sends text as it is, transient when asked, and takes the step's idempotency key as the message id", async () => {
      const queue = await newQueue();
      const result = await publish({ exchange: '', routingKey: queue, message: 'plain text', persistent: false });
      expect(result).toMatchObject({ messageId: 'test-execution:rabbitmq.publishMessage' });
      const got = await take(queue);
      expect(got.content.toString()).toBe('plain text');
      expect(got.properties).toMatchObject({ contentType: undefined, deliveryMode: 1 });
    });

    it('routes through a named exchange, and fails when the message could not be routed', async () => {
      const queue = await newQueue();
      const exchange = `conveyor-test-${randomBytes(5).toString('hex')}`;
      await channel.assertExchange(exchange, 'direct', { autoDelete: true });
      await channel.bindQueue(queue, exchange, 'orders');
      try {
        expect(await publish({ exchange, routingKey: 'orders', message: 'x' })).toMatchObject({ published: true });
        expect(await ready(queue)).toBe(1);
        await expect(publish({ exchange, routingKey: 'nowhere', message: 'x' })).rejects.toThrow(
          `RabbitMQ could not route the message: no queue is bound to exchange "${exchange}" with routing key "nowhere".`,
        );
      } finally {
        await channel.deleteExchange(exchange);
      }
      await expect(publish({ routingKey: 'conveyor-test-no-such-queue', message: 'x' })).rejects.toThrow(
        'there is no queue "conveyor-test-no-such-queue"',
      );
    });

    it('fails for good on a missing exchange, and temporarily when the broker cannot be reached', async () => {
      const missing = publish({ exchange: 'conveyor-test-no-such-exchange', routingKey: 'x', message: 'x' });
      await expect(missing).rejects.toThrow("RabbitMQ: NOT_FOUND - no exchange 'conveyor-test-no-such-exchange'");
      await expect(missing).rejects.not.toBeInstanceOf(TemporaryError);
      const unreachable = runAppAction(rabbitmq, 'publishMessage', {
        auth: { url: 'amqp://guest:guest@127.0.0.1:1' },
        parameters: { routingKey: 'x', message: 'x' },
      });
      await expect(unreachable).rejects.toBeInstanceOf(TemporaryError);
      await expect(
        runAppAction(rabbitmq, 'publishMessage', {
          auth,
          parameters: { routingKey: 'x', message: 'x' },
          allowPrivateNetworks: false,
        }),
      ).rejects.toThrow(BLOCKED);
    });
  });

  describe('newMessage', () => {
    it('hands each message over as { content, properties, fields }, its messageId as its id', async () => {
      const queue = await newQueue();
      await publish({
        routingKey: queue,
        message: '{"order":1}',
        headers: [{ key: 'source', value: 'test' }],
        messageId: 'order-1',
      });
      send(queue, 'not json');
      const probe = listenWithApp(rabbitmq, 'newMessage', { auth, parameters: { queue } });
      const [first, second] = await probe.waitForMessages(2);
      expect(first).toEqual({
        id: 'order-1',
        redelivered: false,
        data: {
          content: { order: 1 },
          properties: {
            contentType: 'application/json',
            headers: { source: 'test' },
            deliveryMode: 2,
            messageId: 'order-1',
            timestamp: expect.any(Number),
            appId: 'conveyor',
          },
          fields: {
            deliveryTag: 1,
            redelivered: false,
            exchange: '',
            routingKey: queue,
            consumerTag: expect.any(String),
          },
        },
      });
      expect(second).toEqual({
        redelivered: false,
        data: expect.objectContaining({ content: 'not json', properties: { headers: {} } }),
      });
      expect(await probe.stop()).toBeNull();
      // Both acknowledged: nothing is left for the next consumer.
      expect(await ready(queue)).toBe(0);
    });

    it('gives a message its run refused back to the queue, which delivers it again as redelivered', async () => {
      const queue = await newQueue();
      send(queue, '{"n":1}');
      let refusals = 0;
      const probe = listenWithApp(rabbitmq, 'newMessage', {
        auth,
        parameters: { queue },
        accept: async () => {
          if (refusals++ === 0) throw new Error('database away');
        },
      });
      const [message] = await probe.waitForMessages(1);
      expect(refusals).toBe(2);
      expect(message).toMatchObject({ redelivered: true, data: { content: { n: 1 }, fields: { redelivered: true } } });
      expect(await probe.stop()).toBeNull();
      expect(await ready(queue)).toBe(0);
    });

    it('offers up to the prefetch at once and no more while runs are not accepted: the broker holds the rest', async () => {
      const queue = await newQueue();
      for (let n = 1; n <= 12; n++) send(queue, JSON.stringify({ n }));
      await eventually(async () => (await ready(queue)) === 12, 'the messages to be queued');
      const offered: ListenerMessage[] = [];
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const probe = listenWithApp(rabbitmq, 'newMessage', {
        auth,
        parameters: { queue, prefetch: 3 },
        accept: async (message) => {
          offered.push(message);
          await gate;
        },
      });
      await probe.subscribed();
      // Three delivered, unacknowledged and offered together; the other nine still ready in the broker.
      await eventually(async () => (await ready(queue)) === 9, 'the broker to hand out the prefetch');
      await eventually(async () => offered.length === 3, 'the three to be offered at once');
      await sleep(300);
      expect(await ready(queue)).toBe(9);
      expect(offered).toHaveLength(3);
      expect(probe.messages).toHaveLength(0);
      release();
      // Each acknowledged on its own once accepted: all twelve, in whatever order they were accepted.
      const all = await probe.waitForMessages(12);
      expect(all.map((m) => (m.data as { content: { n: number } }).content.n).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      await probe.stop();
      // Nothing went back when the channel closed: every one was acknowledged.
      expect(await ready(queue)).toBe(0);
    });

    it('closes its channel and connection when stopped; what it had not acknowledged goes back', async () => {
      const queue = await newQueue();
      send(queue, 'held');
      const probe = listenWithApp(rabbitmq, 'newMessage', {
        auth,
        parameters: { queue },
        accept: () => new Promise(() => {}),
      });
      await probe.subscribed();
      await eventually(async () => (await ready(queue)) === 0, 'the delivery');
      expect(await probe.stop()).toBeNull();
      expect(await channel.checkQueue(queue)).toMatchObject({ consumerCount: 0, messageCount: 1 });
      // The restart test below finds a listener's connection by this name while it is open.
      expect(await brokerConnectionsNamed(`conveyor listener ${queue}`)).toEqual([]);
    });

    it('throws promptly when the broker closes its connection, and a new subscription receives again', async () => {
      const queue = await newQueue();
      const name = `conveyor listener ${queue}`;
      const probe = listenWithApp(rabbitmq, 'newMessage', { auth, parameters: { queue } });
      await probe.subscribed();
      const [connection] = await brokerConnectionsNamed(name);
      // Heartbeats every 10 s: a broker gone silent is noticed within about 20 s.
      expect(connection).toMatchObject({ heartbeat: 10 });
      await rabbitmqctl('close_connection', connection?.pid ?? '', 'conveyor test restart');
      // Ended by the time the command returns, or very soon after: no reconnection attempts.
      const error = await Promise.race([probe.ended, sleep(1000).then(() => new Error('still listening'))]);
      expect(error?.message).toBe('The connection to RabbitMQ was lost: CONNECTION_FORCED - conveyor test restart');

      const again = listenWithApp(rabbitmq, 'newMessage', { auth, parameters: { queue } });
      await again.subscribed();
      send(queue, 'after');
      expect((await again.waitForMessages(1))[0]?.data).toMatchObject({ content: 'after' });
      expect(await again.stop()).toBeNull();
    });

    it('fails clearly for a missing or deleted queue, and refuses loopback without private networks', async () => {
      const missing = listenWithApp(rabbitmq, 'newMessage', { auth, parameters: { queue: 'conveyor-test-missing' } });
      expect((await missing.ended)?.message).toBe(
        'RabbitMQ: queue "conveyor-test-missing" does not exist (in this virtual host).',
      );
      await expect(
        runAppTrigger(rabbitmq, 'newMessage', { auth, parameters: { queue: 'conveyor-test-missing' } }),
      ).rejects.toThrow('queue "conveyor-test-missing" does not exist');
      const queue = await newQueue();
      const deleted = listenWithApp(rabbitmq, 'newMessage', { auth, parameters: { queue } });
      await deleted.subscribed();
      await channel.deleteQueue(queue);
      expect((await deleted.ended)?.message).toBe(
        `RabbitMQ cancelled the subscription to queue "${queue}" (was it deleted?).`,
      );
      const blocked = listenWithApp(rabbitmq, 'newMessage', {
        auth,
        parameters: { queue: 'x' },
        allowPrivateNetworks: false,
      });
      expect((await blocked.ended)?.message).toBe(BLOCKED);
    });

    it('is tested with a sample taken and given back: the queue keeps it; an empty queue gives none', async () => {
      const queue = await newQueue();
      expect(await runAppTrigger(rabbitmq, 'newMessage', { auth, parameters: { queue } })).toEqual([]);
      send(queue, '{"sample":true}', { messageId: 'sample-1' });
      const items = await runAppTrigger(rabbitmq, 'newMessage', { auth, parameters: { queue } });
      expect(items).toEqual([
        {
          id: 'sample-1',
          data: {
            content: { sample: true },
            properties: { headers: {}, messageId: 'sample-1' },
            fields: { deliveryTag: 1, redelivered: false, exchange: '', routingKey: queue },
          },
        },
      ]);
      await eventually(async () => (await ready(queue)) === 1, 'the sample to be back in the queue');
    });
  });
});
