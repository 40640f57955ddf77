import { setTimeout as sleep } from 'node:timers/promises';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { defineTrigger, type ListenerContext, number, text, whenAborted } from '../sdk/index.js';
import { openConnection, rabbitmqAuth, watchConnection, withConnection } from './connection.js';
import { listenerMessage } from './message.js';
import { readAmqpUrl } from './url.js';

/** How long a message whose run could not be accepted is held before it goes back to the queue. */
export const REFUSED_MESSAGE_PAUSE_MS = 1000;

/**
 * A channel on which the queue is known to exist. Declaring nothing: the queue is the broker
 * owner's to create, with the arguments they chose. A missing one fails with its name.
 */
const channelOnQueue = async (connection: ChannelModel, queue: string): Promise<Channel> => {
  const channel = await connection.createChannel();
  // The 404 below closes the channel with an 'error' event, which must have a listener.
  channel.on('error', () => {});
  try {
    await channel.checkQueue(queue);
  } catch (error) {
    if ((error as { code?: unknown }).code === 404)
      throw new Error(`RabbitMQ: queue "${queue}" does not exist (in this virtual host).`);
    throw error;
  }
  return channel;
};

type Parameters = { readonly queue: string; readonly prefetch: number };

/**
 * Consumes the queue until the signal aborts (then it returns) or the connection breaks (then it
 * throws). The broker hands out at most `prefetch` unacknowledged messages, and each is emitted as
 * it arrives: up to `prefetch` are in flight at once (the broker holds the rest until acks free
 * room), each acknowledged on its own once its run is accepted, whatever the order, or given back
 * to the queue (after a pause, so a refusing engine is not a busy loop) when it is not.
 */
const listen = async (ctx: ListenerContext<Parameters>) => {
  const { queue, prefetch } = ctx.parameters;
  const target = readAmqpUrl(rabbitmqAuth.read(ctx.auth).url);
  const connection = await openConnection(ctx, target, `conveyor listener ${queue}`);
  const watch = watchConnection(connection, `The connection to RabbitMQ was lost`);
  let stopping = false;
  try {
    const channel = watch.channel(await channelOnQueue(connection, queue));
    await channel.prefetch(prefetch);

    const deliver = async (message: ConsumeMessage) => {
      if (stopping || watch.failure()) return; // unacknowledged: the broker requeues it on close
      try {
        await ctx.emit(listenerMessage(message));
        channel.ack(message);
      } catch {
        if (stopping || watch.failure()) return;
        await sleep(REFUSED_MESSAGE_PAUSE_MS, undefined, { signal: ctx.signal }).catch(() => {});
        if (!stopping && !watch.failure()) channel.nack(message, false, true);
      }
    };
    await channel.consume(
      queue,
      (message) => {
        if (message === null) {
          watch.fail(new Error(`RabbitMQ cancelled the subscription to queue "${queue}" (was it deleted?).`));
          return;
        }
        // At once, not one after the other: the runs' storing overlaps, and the prefetch bounds how
        // many wait. A failed ack (the channel closed meanwhile) leaves the message to the broker,
        // which delivers it again.
        deliver(message).catch(() => {});
      },
      { noAck: false },
    );
    ctx.subscribed();
    await Promise.race([whenAborted(ctx.signal), watch.broken]);
    stopping = true;
    await channel.close().catch(() => {});
  } finally {
    stopping = true;
    await connection.close().catch(() => {});
  }
};

export const newMessage = defineTrigger({
  key: 'newMessage',
  name: 'New message',
  description: 'Starts the flow with each message of a queue, acknowledged once its run is accepted.',
  type: 'listener',
  arguments: {
    queue: text({
      label: 'Queue',
      required: true,
      description: 'An existing queue; it is not declared or changed.',
      placeholder: 'orders',
    }),
    prefetch: number({
      label: 'Prefetch',
      default: 10,
      integer: true,
      min: 1,
      max: 1000,
      description: 'The most messages the broker hands out before earlier ones are acknowledged.',
    }),
  },
  /** A sample without consuming anything: the first message, given back to the queue at once. */
  async run(ctx) {
    const { queue } = ctx.parameters;
    return withConnection(ctx, `conveyor test ${queue}`, async (connection) => {
      const channel = await channelOnQueue(connection, queue);
      const message = await channel.get(queue, { noAck: false });
      if (message === false) return [];
      channel.nack(message, false, true);
      const { id, data } = listenerMessage(message);
      return [{ ...(id !== undefined && { id }), data }];
    });
  },
  listen,
});
