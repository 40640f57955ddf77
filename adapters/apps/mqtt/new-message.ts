import type { IPublishPacket, MqttClient } from 'mqtt';
import { defineTrigger, dropdown, type ListenerContext, type Store, text, whenAborted } from '../sdk/index.js';
import {
  brokenConnection,
  brokerName,
  closeClient,
  type MqttConnection,
  mqttAuth,
  newClientId,
  openClient,
  parseBrokerUrl,
  withClient,
} from './connection.js';
import { DurableIncomingStore, isStoredPacket, messageData } from './messages.js';
import { topicFilterProblem } from './topics.js';

export const qosOptions = [
  { label: '0: at most once', value: 0 },
  { label: '1: at least once', value: 1 },
  { label: '2: exactly once', value: 2 },
] as const;

/** The listener's session as the flow's store keeps it: the same client id every time, and what it subscribed to. */
interface Session {
  readonly clientId: string;
  readonly topic: string;
}

const SESSION_KEY = 'mqtt:session';

/** The flow's own client id, made once and kept: the broker keeps its session (and queued messages) by it. */
const sessionOf = async (store: Store, connection: MqttConnection): Promise<Session | null> => {
  const saved = (await store.get(SESSION_KEY)) as Partial<Session> | undefined;
  const prefix = connection.clientId ?? 'conveyor';
  return typeof saved?.clientId === 'string' && saved.clientId.startsWith(prefix) && typeof saved.topic === 'string'
    ? { clientId: saved.clientId, topic: saved.topic }
    : null;
};

const SAMPLE_WAIT_MS = 2000;

/** The first message within two seconds (a retained one comes at once), on a clean session at QoS 0: nothing is kept. */
const sample = (client: MqttClient, topic: string) =>
  new Promise<IPublishPacket | null>((resolve, reject) => {
    const timer = setTimeout(() => resolve(null), SAMPLE_WAIT_MS);
    client.handleMessage = (packet, callback) => {
      clearTimeout(timer);
      resolve(packet);
      callback();
    };
    client.subscribeAsync(topic, { qos: 0 }).catch((error: unknown) => {
      clearTimeout(timer);
      reject(error);
    });
  });

const listen = async (ctx: ListenerContext<{ topic: string; qos: 0 | 1 | 2 }>) => {
  const { topic, qos } = ctx.parameters;
  const connection = mqttAuth.read(ctx.auth);
  const where = brokerName(parseBrokerUrl(connection.url));
  const previous = await sessionOf(ctx.store, connection);
  const clientId = previous?.clientId ?? newClientId(connection);
  // A failure of ours (a message not accepted, the store not written) ends the subscription like a broken connection.
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failed.catch(() => {});
  const incomingStore = await DurableIncomingStore.open(ctx.store, fail);

  /**
   * mqtt.js hands us one message at a time and acknowledges it (PUBACK, or PUBCOMP for QoS 2)
   * only when we call back: we call back once the run is accepted, and the next message waits
   * until then (the broker holds the rest, at most RECEIVE_MAXIMUM unacknowledged).
   */
  const handleMessage = (packet: IPublishPacket, callback: (error?: Error) => void) => {
    const stored = isStoredPacket(packet) ? packet.stored : null;
    const data = stored ? stored.data : messageData(packet);
    ctx.emit({ redelivered: packet.dup || (stored?.earlier ?? false), data }).then(
      () => callback(),
      (error: unknown) => {
        if (ctx.signal.aborted) return;
        if (packet.qos === 0) {
          // At most once: the broker has nothing to deliver again.
          ctx.log.warn(
            { topic: data.topic, reason: (error as Error).message },
            'mqtt: a QoS 0 message was not accepted',
          );
          callback();
          return;
        }
        // Not acknowledged: MQTT redelivers only on a new connection of the same session, so close this one.
        fail(
          new Error(
            `A message on ${data.topic} could not be accepted (${(error as Error).message}); the subscription reopens so that the broker delivers it again.`,
          ),
        );
      },
    );
  };

  const client = await openClient(ctx, connection, {
    clientId,
    clean: false,
    incomingStore,
    prepare: (c) => {
      c.handleMessage = handleMessage;
    },
  });
  const lost = brokenConnection(client, where);
  const broken = Promise.race([lost.promise, failed]);
  broken.catch(() => {});
  const closed = whenAborted(ctx.signal);
  try {
    if (!client.connack.sessionPresent) await incomingStore.clear();
    // Retain handling 1: retained messages come when the subscription is new, not again on each reopening.
    const granted = await Promise.race([client.subscribeAsync(topic, { qos, rh: 1 }), broken]);
    const refused = granted.find((g) => g.qos >= 0x80);
    if (refused)
      throw new Error(`The broker ${where} refused the subscription to ${topic} (reason code ${refused.qos}).`);
    if (previous && previous.topic !== topic) await Promise.race([client.unsubscribeAsync(previous.topic), broken]);
    await ctx.store.set(SESSION_KEY, { clientId, topic } satisfies Session);
    ctx.subscribed();
    await Promise.race([closed, broken]);
  } finally {
    lost.stop();
    if (ctx.signal.aborted) await closeClient(client);
    else {
      client.on('error', () => {});
      client.end(true);
    }
  }
};

export const newMessage = defineTrigger({
  key: 'newMessage',
  name: 'New message',
  description: 'Starts the flow with each message published on a topic (wildcards + and # allowed).',
  type: 'listener',
  arguments: {
    topic: text({
      label: 'Topic',
      required: true,
      placeholder: 'sensors/+/temperature',
      description: '+ matches one level, # the rest (sensors/#).',
      check: topicFilterProblem,
    }),
    qos: dropdown({
      label: 'QoS',
      default: 1,
      options: qosOptions,
      description:
        'The highest quality of service to receive with; 1 and 2 keep messages for the flow while it is not listening.',
    }),
  },
  async run(ctx) {
    const packet = await withClient(ctx, mqttAuth.read(ctx.auth), (client) => sample(client, ctx.parameters.topic));
    return packet ? [{ data: messageData(packet) }] : [];
  },
  listen,
});
