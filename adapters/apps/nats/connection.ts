import { isIP } from 'node:net';
import { type ConnectionOptions, connect, type NatsConnection, type TlsOptions } from 'nats';
import type { AppContext } from '../sdk/index.js';
import { assertHostAllowed, fieldsAuth, type InferParameters, TemporaryError, text } from '../sdk/index.js';

export interface ServerAddress {
  /** `tls://`: TLS required. With `nats://` (or none) TLS is still used when the server asks for it. */
  readonly tls: boolean;
  readonly hostname: string;
  readonly port: number;
}

/** `host:port` with IPv6 bracketed, as URLs and messages write it. */
export const hostPort = (hostname: string, port: number) =>
  `${isIP(hostname) === 6 ? `[${hostname}]` : hostname}:${port}`;

/** `nats://host:4222, tls://other:4222`: each server (the scheme optional, port 4222 by default); throws a message fit for the user. */
export const parseServers = (servers: string): ServerAddress[] => {
  const entries = servers
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) throw new Error('Give at least one server (nats://host:4222).');
  return entries.map((entry) => {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ? entry : `nats://${entry}`;
    let url: URL;
    try {
      url = new URL(withScheme);
    } catch {
      throw new Error(`"${entry}" is not a server address (nats://host:4222).`);
    }
    if (url.protocol !== 'nats:' && url.protocol !== 'tls:')
      throw new Error(`"${url.protocol}//" is not a NATS scheme: use nats:// or tls://.`);
    if (url.username || url.password)
      throw new Error('Put the token, user and password in their own fields, not in the server address.');
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (hostname === '') throw new Error(`"${entry}" has no host.`);
    return { tls: url.protocol === 'tls:', hostname, port: url.port ? Number(url.port) : 4222 };
  });
};

const serversCheck = (value: string): string | null => {
  try {
    parseServers(value);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

const fields = {
  servers: text({
    label: 'Servers',
    required: true,
    placeholder: 'nats://nats.example.com:4222',
    description: 'nats:// or tls:// addresses, separated by commas; tried in order.',
    check: serversCheck,
  }),
  token: text({
    label: 'Token',
    secret: true,
    description: 'For a server that takes a token; else user and password.',
  }),
  user: text({ label: 'User' }),
  password: text({ label: 'Password', secret: true }),
};

export type NatsConnectionFields = InferParameters<typeof fields>;

/** A server name that is its generated public key (N + 55 characters) says nothing to a person. */
const GENERATED_NAME = /^N[A-Z2-7]{55}$/;

export const natsAuth = fieldsAuth({
  fields,
  async verify(ctx) {
    const connection = ctx.auth.data;
    const { nc, server } = await openConnection(ctx, connection);
    try {
      await nc.flush();
      const name = nc.info?.server_name;
      const where = name && !GENERATED_NAME.test(name) ? name : hostPort(server.hostname, server.port);
      return { screenName: connection.user ? `${connection.user}@${where}` : where };
    } finally {
      await nc.close();
    }
  },
});

/** Failures that may pass: the server not there (yet), slow, or going away. */
const TEMPORARY_CODES = new Set([
  'CONNECTION_REFUSED',
  'CONNECTION_TIMEOUT',
  'TIMEOUT',
  'DISCONNECT',
  'CONNECTION_CLOSED',
]);

/** What the client library said, naming the server (never a credential), temporary when it may pass. */
export const natsFailure = (error: unknown, where: string): Error => {
  const reason = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const message = `NATS server ${where}: ${reason}`;
  if (typeof code === 'string' && TEMPORARY_CODES.has(code)) return new TemporaryError(message, { cause: error });
  return new Error(message, { cause: error });
};

const isAuthFailure = (error: unknown) =>
  /AUTHORIZATION_VIOLATION|AUTHENTICATION|BAD_AUTHENTICATION|BAD_CREDS/.test(
    String((error as { code?: unknown } | null)?.code),
  );

/**
 * Connects to the first server that answers, each through the network guard (to the checked
 * address; a name stays the TLS server name). Reconnection is off: a connection that breaks is
 * closed, and `nc.closed()` says why. Pings every 10 s, two missed close it.
 */
export const openConnection = async (
  ctx: Pick<AppContext<unknown, unknown>, 'network'>,
  connection: NatsConnectionFields,
): Promise<{ nc: NatsConnection; server: ServerAddress; where: string }> => {
  let failure: Error | null = null;
  for (const server of parseServers(connection.servers)) {
    const where = hostPort(server.hostname, server.port);
    const address = await assertHostAllowed(server.hostname, ctx.network);
    // Passed on to tls.connect: the certificate is checked against the name, not the address.
    const tls = (isIP(server.hostname) === 0 ? { servername: server.hostname } : {}) as TlsOptions;
    const options: ConnectionOptions = {
      servers: hostPort(address, server.port),
      ...(server.tls && { tls }),
      ...(connection.token !== undefined && { token: connection.token }),
      ...(connection.user !== undefined && { user: connection.user, pass: connection.password ?? '' }),
      name: 'conveyor',
      reconnect: false,
      maxReconnectAttempts: 0,
      waitOnFirstConnect: false,
      ignoreClusterUpdates: true,
      timeout: 10_000,
      pingInterval: 10_000,
      maxPingOut: 2,
    };
    try {
      return { nc: await connect(options), server, where };
    } catch (error) {
      failure = natsFailure(error, where);
      if (isAuthFailure(error)) break;
    }
  }
  throw failure ?? new Error('No NATS server to connect to.');
};

/** Why a connection closed that we did not close: what a listener throws. */
export const whyClosed = async (nc: NatsConnection, where: string): Promise<Error> => {
  const error = await nc.closed();
  return error ? natsFailure(error, where) : natsFailure(new Error('the connection closed'), where);
};

/** Runs `work` on a connection of its own, always closed after: for actions and samples. */
export const withConnection = async <T>(
  ctx: Pick<AppContext<unknown, unknown>, 'network' | 'signal'>,
  connection: NatsConnectionFields,
  work: (nc: NatsConnection) => Promise<T>,
): Promise<T> => {
  const { nc, where } = await openConnection(ctx, connection);
  const close = () => {
    nc.close().catch(() => {});
  };
  ctx.signal.addEventListener('abort', close, { once: true });
  try {
    return await work(nc);
  } catch (error) {
    throw nc.isClosed() && !ctx.signal.aborted ? await whyClosed(nc, where) : error;
  } finally {
    ctx.signal.removeEventListener('abort', close);
    if (!nc.isClosed()) await nc.close().catch(() => {});
  }
};
