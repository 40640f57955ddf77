import { isIP } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';
import type { AppContext } from '../sdk/index.js';
import { assertHostAllowed, boolean, fieldsAuth, number, TemporaryError, text } from '../sdk/index.js';

export const redisAuth = fieldsAuth({
  fields: {
    host: text({ label: 'Host', required: true, placeholder: 'redis.example.com' }),
    port: number({ label: 'Port', required: true, default: 6379, integer: true, min: 1, max: 65535 }),
    username: text({
      label: 'Username',
      description: 'An ACL user (Redis 6 and later), sent with the password; empty for the default user.',
    }),
    password: text({ label: 'Password', secret: true }),
    database: number({ label: 'Database', required: true, default: 0, integer: true, min: 0 }),
    tls: boolean({ label: 'Use TLS', default: false, description: 'The server certificate is verified.' }),
  },
  async verify(ctx) {
    const { host, port, database } = ctx.auth.data;
    await withRedis(ctx, ctx.auth.data, (client) => client.ping());
    return { screenName: `${host}:${port}/${database}` };
  },
});

export type RedisConnection = ReturnType<typeof redisAuth.read>;

type Context = Pick<AppContext<unknown, unknown>, 'network' | 'signal' | 'log'>;

const CONNECT_TIMEOUT_MS = 10_000;
const COMMAND_TIMEOUT_MS = 30_000;
/** Added to a blocking read's BLOCK time before the client gives up on a silent server. */
const BLOCKING_GRACE_MS = 10_000;

/**
 * Replies that say the server cannot answer now but will (loading its data after a restart, a
 * script running too long, a replica without its primary, a cluster reconfiguring): a run retries
 * them. Any other reply (WRONGTYPE, a refused password, a bad argument) fails the step.
 */
const TEMPORARY_REPLIES = ['LOADING', 'BUSY', 'TRYAGAIN', 'MASTERDOWN', 'CLUSTERDOWN', 'READONLY'];

/** An error the server answered, as opposed to a connection that failed or broke. */
export const isReplyError = (error: unknown): error is Error => error instanceof Error && error.name === 'ReplyError';

/**
 * What a Redis failure becomes for the engine: the server's refusals stay plain errors (the step
 * fails), except the few that pass; everything else is the connection failing or breaking (refused,
 * reset, timed out, closed), a TemporaryError retried with backoff.
 */
const redisFailure = (error: unknown, where: string): Error => {
  if (error instanceof TemporaryError) return error;
  if (isReplyError(error)) {
    const word = error.message.split(' ', 1)[0] ?? '';
    return TEMPORARY_REPLIES.includes(word) ? new TemporaryError(error.message, { cause: error }) : error;
  }
  const message = error instanceof Error ? error.message : String(error);
  return new TemporaryError(`Redis at ${where}: ${message}`, { cause: error });
};

export interface OpenRedisOptions {
  /**
   * The listener's connection: its blocking reads wait this long for entries. Every command on it
   * then fails after that and 10 s more without an answer: a server gone silent (no close, no
   * reset) is noticed. ioredis's `blockingTimeout` would answer such a read as empty instead.
   */
  readonly blockingMs?: number;
}

/**
 * A connected client, on the address the network guard answers, with ioredis's own recovery off
 * (no reconnection, no offline queue, no resent commands): a failure surfaces at once, to the
 * step (retried by the engine) or to the listener (which throws, and the engine reopens it).
 * Aborting `ctx.signal` disconnects it, which ends any command it waits for, a blocking read
 * included. The caller disconnects it when done.
 */
export const openRedis = async (ctx: Context, connection: RedisConnection, options: OpenRedisOptions = {}) => {
  const where = `${connection.host}:${connection.port}`;
  const address = await assertHostAllowed(connection.host, ctx.network);
  const settings: RedisOptions = {
    host: address,
    port: connection.port,
    ...(connection.password !== undefined && {
      password: connection.password,
      ...(connection.username !== undefined && { username: connection.username }),
    }),
    // Connecting to the checked address, the certificate is still checked against the name given.
    ...(connection.tls && { tls: isIP(connection.host) ? {} : { servername: connection.host } }),
    // RESP2: what every Redis and compatible server speaks (RESP3 needs Redis 6's HELLO).
    protocol: 2,
    lazyConnect: true,
    retryStrategy: () => null,
    reconnectOnError: null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    autoResubscribe: false,
    autoResendUnfulfilledCommands: false,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: options.blockingMs === undefined ? COMMAND_TIMEOUT_MS : options.blockingMs + BLOCKING_GRACE_MS,
    connectionName: 'conveyor',
  };
  const client = new Redis(settings);
  // ioredis rejects what was waiting with "Connection is closed."; the reason (refused, reset,
  // timed out, a refused password) comes as an 'error' event, before the connection ends.
  let reason: Error | null = null;
  client.on('error', (error: Error) => {
    reason ??= error;
    ctx.log.debug({ reason: error.message }, 'redis connection error');
  });
  /** What a failure of this connection becomes (redisFailure), with the connection's reason when it broke. */
  const failure = (error: unknown) => redisFailure(isReplyError(error) ? error : (reason ?? error), where);
  const abort = () => client.disconnect();
  ctx.signal.addEventListener('abort', abort, { once: true });
  client.once('end', () => ctx.signal.removeEventListener('abort', abort));
  try {
    await client.connect();
    // Selected here rather than by ioredis, which would carry on in database 0 when it is refused.
    if (connection.database !== 0) await client.select(connection.database);
  } catch (error) {
    client.disconnect();
    throw failure(error);
  }
  return { client, failure };
};

/** Runs `work` on a client opened for this run only and always closed after, as the postgresql app does. */
export const withRedis = async <T>(
  ctx: Context,
  connection: RedisConnection,
  work: (client: Redis) => Promise<T>,
): Promise<T> => {
  const { client, failure } = await openRedis(ctx, connection);
  try {
    return await work(client);
  } catch (error) {
    throw failure(error);
  } finally {
    client.disconnect();
  }
};
