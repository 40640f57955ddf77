import { isIP } from 'node:net';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import type { AppContext } from '../sdk/index.js';
import { assertHostAllowed, fieldsAuth, TemporaryError, text } from '../sdk/index.js';
import { type AmqpTarget, amqpUrl, readAmqpUrl, screenNameOf } from './url.js';

const CONNECT_TIMEOUT_MS = 10_000;
/** Seconds: a broker that stops answering is noticed within two of them. */
const HEARTBEAT_SECONDS = 10;

type ConnectContext = Pick<AppContext<unknown, unknown>, 'network' | 'signal'>;

/**
 * Opens a connection to the broker the URL names, at the address the network guard answers (for
 * amqps the certificate is still checked against the name given). `name` is what the broker's
 * management shows for it (`connection_name`). No recovery: a broken connection stays broken.
 */
export const openConnection = async (ctx: ConnectContext, target: AmqpTarget, name: string): Promise<ChannelModel> => {
  const address = await assertHostAllowed(target.host, ctx.network);
  try {
    const connection = await amqp.connect(
      {
        protocol: target.protocol,
        hostname: address,
        port: target.port,
        username: target.username,
        password: target.password,
        // amqplib unescapes it once more.
        vhost: encodeURIComponent(target.vhost),
        heartbeat: HEARTBEAT_SECONDS,
      },
      {
        timeout: CONNECT_TIMEOUT_MS,
        clientProperties: { connection_name: name },
        ...(target.protocol === 'amqps' && !isIP(target.host) && { servername: target.host }),
      },
    );
    // Without a listener, an 'error' event (the broker closing it) would crash the process.
    connection.on('error', () => {});
    return connection;
  } catch (error) {
    throw connectError(target, error);
  }
};

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** AMQP reply codes of failures that may pass: the broker closing connections (shutdown), short of resources. */
const TEMPORARY_REPLY_CODES = new Set([320, 506, 541]);

/**
 * Whether a failure may pass: the network, a connection that broke or closed under us, the
 * broker shutting down or short of resources. A refused login, a missing queue or exchange is not.
 */
export const isTemporaryAmqpError = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return NETWORK_CODES.has(code);
  if (typeof code === 'number') return TEMPORARY_REPLY_CODES.has(code);
  return /socket closed|unexpected close|connection closed|heartbeat timeout|ETIMEDOUT/i.test(error.message);
};

/** A connection failure in words a user can act on; the URL (and its password) never appears. */
const connectError = (target: AmqpTarget, error: unknown): Error => {
  const where = screenNameOf(target).replace(/^[^@]*@/, '');
  const reason = error instanceof Error ? error.message : String(error);
  const refusedVhost = /Expected ConnectionOpenOk; got <ConnectionClose/.test(reason);
  const message = refusedVhost
    ? `RabbitMQ at ${where} refused the virtual host "${target.vhost}": it does not exist, or the user may not use it.`
    : `Could not connect to RabbitMQ at ${where}: ${reason}`;
  return isTemporaryAmqpError(error)
    ? new TemporaryError(message, { cause: error })
    : new Error(message, { cause: error });
};

export const rabbitmqAuth = fieldsAuth({
  fields: {
    url: text({
      label: 'URL',
      required: true,
      secret: true,
      placeholder: 'amqp://user:password@rabbitmq.example.com:5672/vhost',
      description: 'amqp:// or amqps:// (TLS). The virtual host is the path; none is "/".',
      check: amqpUrl,
    }),
  },
  async verify(ctx) {
    const target = readAmqpUrl(ctx.auth.data.url);
    const connection = await openConnection(ctx, target, 'conveyor');
    await connection.close().catch(() => {});
    return { screenName: screenNameOf(target) };
  },
});

/**
 * What ends a connection's use early: the connection or a channel closing or failing. `broken`
 * rejects with the first such failure; `failure` is that error once it happened.
 */
export interface Watch {
  readonly broken: Promise<never>;
  readonly failure: () => Error | null;
  /** Also watch this channel (its 'error' names a channel-level refusal: a missing exchange). */
  channel<C extends Channel>(channel: C): C;
  /** Ends the use from outside (a cancelled consumer). */
  fail(error: Error): void;
}

/** amqplib's "Channel closed by server: 404 (NOT-FOUND) with message "NOT_FOUND - no queue..."": the broker's words. */
export const brokerReason = (message: string): string => /with message "(.*)"$/s.exec(message)?.[1] ?? message;

/** Watches a connection; a failure's message is `prefix: <the broker's reason>`. */
export const watchConnection = (connection: ChannelModel, prefix: string): Watch => {
  let failure: Error | null = null;
  let reject: (error: Error) => void = () => {};
  const broken = new Promise<never>((_, rejectWith) => {
    reject = rejectWith;
  });
  // Nobody may be waiting on it yet: a rejection must not count as unhandled.
  broken.catch(() => {});
  const fail = (error: Error) => {
    if (failure) return;
    failure = error;
    reject(error);
  };
  const failWith = (error?: Error) => {
    const message = `${prefix}: ${error ? brokerReason(error.message) : 'it closed.'}`;
    fail(isTemporaryAmqpError(error) || !error ? new TemporaryError(message, { cause: error }) : new Error(message));
  };
  connection.on('error', failWith);
  connection.on('close', failWith);
  return {
    broken,
    failure: () => failure,
    channel(channel) {
      channel.on('error', failWith);
      // A channel also closes when its connection does, just before the connection says why.
      channel.on('close', () => setImmediate(failWith));
      return channel;
    },
    fail,
  };
};

/**
 * Runs `work` on a connection opened for this run only and always closed after: runs are rare
 * and short, and a pool would hold sockets to brokers users may have forgotten. The connection
 * breaking is a TemporaryError (the engine retries); the run's signal closes it.
 */
export const withConnection = async <T>(
  ctx: ConnectContext & Pick<AppContext<unknown>, 'auth'>,
  name: string,
  work: (connection: ChannelModel, watch: Watch) => Promise<T>,
): Promise<T> => {
  const target = readAmqpUrl(rabbitmqAuth.read(ctx.auth).url);
  const connection = await openConnection(ctx, target, name);
  const watch = watchConnection(connection, 'RabbitMQ');
  const abort = () => connection.close().catch(() => {});
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    return await Promise.race([work(connection, watch), watch.broken]);
  } catch (error) {
    // A channel's refusal (no such exchange) arrives as an 'error' before its pending calls fail.
    throw watch.failure() ?? error;
  } finally {
    ctx.signal.removeEventListener('abort', abort);
    await connection.close().catch(() => {});
  }
};
