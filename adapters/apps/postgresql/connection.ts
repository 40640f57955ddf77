import { isIP } from 'node:net';
import pg from 'pg';
import type { AppContext } from '../sdk/index.js';
import { assertHostAllowed, boolean, fieldsAuth, number, TemporaryError, text } from '../sdk/index.js';

export const postgresAuth = fieldsAuth({
  fields: {
    host: text({ label: 'Host', required: true, placeholder: 'db.example.com' }),
    port: number({ label: 'Port', required: true, default: 5432, integer: true, min: 1, max: 65535 }),
    database: text({ label: 'Database', required: true }),
    user: text({ label: 'User', required: true }),
    password: text({ label: 'Password', secret: true }),
    ssl: boolean({ label: 'Use SSL', default: false, description: 'The server certificate is verified.' }),
  },
  async verify(ctx) {
    const { host, database, user } = ctx.auth.data;
    await withClient(ctx, ctx.auth.data, (client) => client.query('SELECT 1'));
    return { screenName: `${user}@${host}/${database}` };
  },
});

export type PostgresConnection = ReturnType<typeof postgresAuth.read>;

/**
 * SQLSTATEs of failures that may pass: the connection broke (class 08), the transaction lost a
 * race (serialization failure, deadlock), the server is short of resources or restarting, a lock
 * was not free in time. A run retries these; any other server error (bad SQL, a constraint) fails.
 */
const TEMPORARY_STATES = new Set(['40001', '40P01', '55P03', '57P01', '57P02', '57P03']);
const TEMPORARY_CLASSES = new Set(['08', '53']);

export const isTemporaryDatabaseError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    error instanceof Error &&
    typeof code === 'string' &&
    /^[0-9A-Z]{5}$/.test(code) &&
    (TEMPORARY_STATES.has(code) || TEMPORARY_CLASSES.has(code.slice(0, 2)))
  );
};

const CONNECT_TIMEOUT_MS = 10_000;
const QUERY_TIMEOUT_MS = 120_000;

type ClientContext = Pick<AppContext<unknown, unknown>, 'network' | 'signal' | 'log'>;

/**
 * A client to the connection's checked address, not yet connected: `withClient` runs one run's
 * work on it, a listener holds one open. `settings` adds to (or overrides) the defaults.
 */
export const createClient = async (
  ctx: ClientContext,
  connection: PostgresConnection,
  settings: pg.ClientConfig = {},
): Promise<pg.Client> => {
  const address = await assertHostAllowed(connection.host, ctx.network);
  return new pg.Client({
    host: address,
    port: connection.port,
    database: connection.database,
    user: connection.user,
    ...(connection.password !== undefined && { password: connection.password }),
    // Connecting to the checked address, the certificate is still checked against the name given.
    ssl: connection.ssl ? (isIP(connection.host) ? {} : { servername: connection.host }) : false,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    application_name: 'conveyor',
    ...settings,
  });
};

/** A failure that may pass as a TemporaryError, any other as it is. */
export const classifyDatabaseError = (error: unknown): unknown =>
  isTemporaryDatabaseError(error) ? new TemporaryError((error as Error).message, { cause: error }) : error;

/**
 * Runs `work` on a client opened for this run only and always closed after: runs are rare and
 * short, and a pool per connection would hold sockets to servers users may have forgotten.
 */
export const withClient = async <T>(
  ctx: ClientContext,
  connection: PostgresConnection,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> => {
  const client = await createClient(ctx, connection);
  // Without a listener, an error on an idle client (server restart) would crash the process.
  client.on('error', (error) => ctx.log.warn({ reason: error.message }, 'postgresql connection error'));
  const abort = () => {
    client.end().catch(() => {});
  };
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    await client.connect();
    return await work(client);
  } catch (error) {
    throw classifyDatabaseError(error);
  } finally {
    ctx.signal.removeEventListener('abort', abort);
    await client.end().catch(() => {});
  }
};
