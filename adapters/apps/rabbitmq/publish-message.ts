import { randomUUID } from 'node:crypto';
import { boolean, defineAction, keyValueList, TemporaryError, text } from '../sdk/index.js';
import { withConnection } from './connection.js';

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const unroutable = (exchange: string, routingKey: string) =>
  exchange === ''
    ? `RabbitMQ could not route the message: there is no queue "${routingKey}" (the default exchange delivers to the queue the routing key names).`
    : `RabbitMQ could not route the message: no queue is bound to exchange "${exchange}" with routing key "${routingKey}".`;

export const publishMessage = defineAction({
  key: 'publishMessage',
  name: 'Publish message',
  description: 'Publishes a message to an exchange and waits until the broker confirms it.',
  arguments: {
    exchange: text({
      label: 'Exchange',
      description: 'Empty for the default exchange, which delivers to the queue the routing key names.',
      acceptsVariables: true,
    }),
    routingKey: text({
      label: 'Routing key',
      description: 'For the default exchange, the name of the queue.',
      acceptsVariables: true,
    }),
    message: text({
      label: 'Message',
      required: true,
      description: 'Sent as it is; JSON text is labelled application/json.',
      acceptsVariables: true,
    }),
    headers: keyValueList({ label: 'Headers', acceptsVariables: true }),
    persistent: boolean({
      label: 'Persistent',
      default: true,
      description: 'Written to disk by durable queues, so that it survives a broker restart.',
    }),
    messageId: text({
      label: 'Message ID',
      description: "Empty: the step's own, the same when the step is retried, so consumers can skip a repeat.",
      acceptsVariables: true,
    }),
  },
  async run(ctx) {
    const { exchange = '', routingKey = '', message, headers = [], persistent, messageId } = ctx.parameters;
    const id = messageId ?? ctx.execution?.idempotencyKey ?? randomUUID();
    return withConnection(ctx, 'conveyor', async (connection, watch) => {
      const channel = watch.channel(await connection.createConfirmChannel());
      let returned = false;
      channel.on('return', () => {
        returned = true;
      });
      await new Promise<void>((resolve, reject) => {
        channel.publish(
          exchange,
          routingKey,
          Buffer.from(message, 'utf8'),
          {
            persistent,
            messageId: id,
            // Unroutable, it comes back (before the confirm) instead of vanishing.
            mandatory: true,
            timestamp: Math.floor(Date.now() / 1000),
            appId: 'conveyor',
            ...(isJson(message) && { contentType: 'application/json' }),
            ...(headers.length > 0 && { headers: Object.fromEntries(headers.map((h) => [h.key, h.value])) }),
          },
          (error: unknown) => {
            if (!error) resolve();
            // The channel closing (a missing exchange, the connection lost) says why through `watch`.
            else
              reject(watch.failure() ?? new TemporaryError('RabbitMQ did not accept the message (it answered nack).'));
          },
        );
      });
      if (returned) throw new Error(unroutable(exchange, routingKey));
      return { published: true, exchange, routingKey, messageId: id };
    });
  },
});
