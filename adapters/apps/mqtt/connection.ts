import { randomBytes } from 'node:crypto';
import { isIP, type LookupFunction } from 'node:net';
import { connect, type IClientOptions, type IConnackPacket, type IStore, type MqttClient } from 'mqtt';
import type { AppContext } from '../sdk/index.js';
import { assertHostAllowed, fieldsAuth, type InferParameters, matches, TemporaryError, text } from '../sdk/index.js';

export type BrokerProtocol = 'mqtt' | 'mqtts' | 'ws' | 'wss';

export interface BrokerAddress {
  readonly protocol: BrokerProtocol;
  readonly hostname: string;
  readonly port: number;
  /** WebSocket path (`/mqtt`); `/` for TCP. */
  readonly path: string;
}

const DEFAULT_PORTS: Record<BrokerProtocol, number> = { mqtt: 1883, mqtts: 8883, ws: 80, wss: 443 };

/** `mqtt://host[:port]`, `mqtts://`, `ws://host[:port]/path` or `wss://`; throws a message fit for the user. */
export const parseBrokerUrl = (url: string): BrokerAddress => {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error('The broker URL is not a URL (mqtt://broker.example.com:1883).');
  }
  const protocol = parsed.protocol.replace(/:$/, '');
  if (!(protocol in DEFAULT_PORTS))
    throw new Error('The broker URL must start with mqtt://, mqtts://, ws:// or wss://.');
  if (parsed.username || parsed.password)
    throw new Error('Put the username and password in their own fields, not in the broker URL.');
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (hostname === '') throw new Error('The broker URL has no host.');
  const scheme = protocol as BrokerProtocol;
  return {
    protocol: scheme,
    hostname,
    port: parsed.port ? Number(parsed.port) : DEFAULT_PORTS[scheme],
    path: scheme === 'ws' || scheme === 'wss' ? `${parsed.pathname}${parsed.search}` : '/',
  };
};

const brokerUrl = (value: string): string | null => {
  try {
    parseBrokerUrl(value);
    return null;
  } catch (error) {
    return `${(error as Error).message.replace(/^The broker URL /, '').replace(/^Put/, 'put')}`;
  }
};

/** Printable client ids that strict brokers accept (MQTT 3.1.1 only promises [0-9a-zA-Z], 1 to 23 characters). */
const CLIENT_ID_PREFIX = /^[0-9A-Za-z_-]{1,32}$/;

const fields = {
  url: text({
    label: 'Broker URL',
    required: true,
    placeholder: 'mqtts://broker.example.com:8883',
    description: 'mqtt:// (1883), mqtts:// (TLS, 8883), ws:// or wss:// (MQTT over WebSocket, with its path).',
    check: brokerUrl,
  }),
  username: text({ label: 'Username' }),
  password: text({ label: 'Password', secret: true }),
  clientId: text({
    label: 'Client ID prefix',
    placeholder: 'conveyor',
    description:
      'Each connection uses this followed by 12 random characters (a listening flow keeps its own for good). "conveyor" when empty.',
    check: matches(CLIENT_ID_PREFIX, 'must be 1 to 32 letters, digits, - or _.'),
  }),
};

export type MqttConnection = InferParameters<typeof fields>;

export const mqttAuth = fieldsAuth({
  fields,
  async verify(ctx) {
    const connection = ctx.auth.data;
    const client = await openClient(ctx, connection, { clientId: newClientId(connection), clean: true });
    await closeClient(client);
    return { screenName: screenName(connection) };
  },
});

/** `host:port`, as messages name the broker. */
export const brokerName = ({ hostname, port }: BrokerAddress): string =>
  `${isIP(hostname) === 6 ? `[${hostname}]` : hostname}:${port}`;

export const screenName = (connection: MqttConnection): string => {
  const broker = brokerName(parseBrokerUrl(connection.url));
  return connection.username ? `${connection.username}@${broker}` : broker;
};

/** A fresh client id: the connection's prefix and 12 random hex characters. */
export const newClientId = (connection: Pick<MqttConnection, 'clientId'>): string =>
  `${connection.clientId ?? 'conveyor'}${randomBytes(6).toString('hex')}`;

/** Seconds a listener's session (its subscription and the messages queued for it) outlives a disconnection. */
export const SESSION_EXPIRY_SECONDS = 7 * 24 * 3600;
/** QoS 1 and 2 messages the broker may send before we acknowledge one (MQTT 5 Receive Maximum). */
export const RECEIVE_MAXIMUM = 10;

export interface ClientSettings {
  readonly clientId: string;
  /** false: a persistent session (SESSION_EXPIRY_SECONDS), which keeps what the broker has not delivered. */
  readonly clean: boolean;
  readonly incomingStore?: IStore;
  /** Runs on the client before it connects: the place to set `handleMessage`. */
  readonly prepare?: (client: MqttClient) => void;
}

/** A pinned DNS answer: a WebSocket keeps its host name (Host header, TLS name) but reaches the checked address. */
const pinnedLookup =
  (address: string): LookupFunction =>
  (_hostname, options, callback) => {
    const family = isIP(address);
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

/** Connack reason codes of a broker that may accept later: unavailable, busy, quota, rate. */
const TEMPORARY_REFUSALS = new Set([3, 136, 137, 151, 159]);

/** What the client library said, as a message for the user (never with the password), temporary when it may pass. */
export const connectionFailure = (error: unknown, target: string): Error => {
  const reason = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const message = `MQTT broker ${target}: ${reason}`;
  if (typeof code === 'string') return Object.assign(new Error(message, { cause: error }), { code });
  if ((typeof code === 'number' && TEMPORARY_REFUSALS.has(code)) || /timeout/i.test(reason))
    return new TemporaryError(message, { cause: error });
  return new Error(message, { cause: error });
};

const CONNECT_TIMEOUT_MS = 10_000;
const KEEPALIVE_SECONDS = 10;

/**
 * Connects (MQTT 5) to the connection's broker, through the network guard: to the checked address,
 * the host name kept for TLS. The library never reconnects: a listener fails instead and the engine
 * reopens it. Resolves once the broker accepted the connection; `ctx.signal` ends it.
 */
export const openClient = async (
  ctx: Pick<AppContext<unknown, unknown>, 'network' | 'signal'>,
  connection: MqttConnection,
  settings: ClientSettings,
): Promise<MqttClient & { connack: IConnackPacket }> => {
  const target = parseBrokerUrl(connection.url);
  const address = await assertHostAllowed(target.hostname, ctx.network);
  const webSocket = target.protocol === 'ws' || target.protocol === 'wss';
  const pinned = isIP(address) !== 0 && address !== target.hostname;
  const options: IClientOptions = {
    protocol: target.protocol,
    hostname: webSocket ? target.hostname : address,
    port: target.port,
    path: target.path,
    ...(target.protocol === 'mqtts' && isIP(target.hostname) === 0 && { servername: target.hostname }),
    ...(webSocket && pinned && { wsOptions: { lookup: pinnedLookup(address) } }),
    ...(connection.username !== undefined && { username: connection.username }),
    ...(connection.password !== undefined && { password: connection.password }),
    clientId: settings.clientId,
    clean: settings.clean,
    protocolVersion: 5,
    properties: {
      receiveMaximum: RECEIVE_MAXIMUM,
      ...(!settings.clean && { sessionExpiryInterval: SESSION_EXPIRY_SECONDS }),
    },
    ...(settings.incomingStore && { incomingStore: settings.incomingStore }),
    reconnectPeriod: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    keepalive: KEEPALIVE_SECONDS,
    resubscribe: false,
  };
  const client = connect(options);
  settings.prepare?.(client);
  const where = brokerName(target);
  let onError: (error: Error) => void = () => {};
  let onClose = () => {};
  let onAbort = () => {};
  try {
    const connack = await new Promise<IConnackPacket>((resolve, reject) => {
      onError = (error) => reject(connectionFailure(error, where));
      onClose = () => reject(connectionFailure(new Error('the connection closed'), where));
      onAbort = () => reject(new Error('Closed before the broker answered.'));
      client.once('connect', resolve).on('error', onError).on('close', onClose);
      if (ctx.signal.aborted) onAbort();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
    });
    return Object.assign(client, { connack });
  } catch (error) {
    client.on('error', () => {});
    client.end(true);
    throw error;
  } finally {
    // What a broken connection does from now on is the caller's to hear.
    client.off('error', onError).off('close', onClose);
    ctx.signal.removeEventListener('abort', onAbort);
  }
};

/** Disconnects politely (DISCONNECT), forcibly when the broker does not let go within a second. */
export const closeClient = async (client: MqttClient): Promise<void> => {
  if (!client.listenerCount('error')) client.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.endAsync(false).catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        client.end(true);
        resolve();
      }, 1000);
    }),
  ]);
  clearTimeout(timer);
};

/** Runs `work` on a client of its own (a clean session), always closed after: for actions and samples. */
export const withClient = async <T>(
  ctx: Pick<AppContext<unknown, unknown>, 'network' | 'signal'>,
  connection: MqttConnection,
  work: (client: MqttClient) => Promise<T>,
): Promise<T> => {
  const client = await openClient(ctx, connection, { clientId: newClientId(connection), clean: true });
  const lost = brokenConnection(client, brokerName(parseBrokerUrl(connection.url)));
  const cancel = () => lost.fail(new Error('Cancelled.'));
  ctx.signal.addEventListener('abort', cancel, { once: true });
  try {
    return await Promise.race([work(client), lost.promise]);
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
    lost.stop();
    await closeClient(client);
  }
};

/**
 * Rejects when the connection breaks (an error, the broker closing it, keepalive missed) until
 * `stop()`: what a client that is open must listen to, since the library does not reconnect.
 */
export const brokenConnection = (client: MqttClient, where: string) => {
  let fail: (error: Error) => void = () => {};
  const promise = new Promise<never>((_, reject) => {
    fail = reject;
  });
  promise.catch(() => {});
  const onError = (error: Error) => fail(connectionFailure(error, where));
  const onClose = () => fail(connectionFailure(new Error('the connection closed'), where));
  client.on('error', onError).on('close', onClose);
  return {
    promise,
    fail,
    stop() {
      client.off('error', onError).off('close', onClose);
    },
  };
};
