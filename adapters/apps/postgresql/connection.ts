import { isIP } from 'node:net';
import pg from 'pg';
import type { AppContext } from '../sdk/index.js';
import { assertHostAllowed, boolean, fieldsAuth, number, text } from '../sdk/index.js';

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

const CONNECT_TIMEOUT_MS = 10_000;
const QUERY_TIMEOUT_MS = 120_000;

/**
 * Runs `work` on a client opened for this run only and always closed after: runs are rare and
 * short, and a pool per connection would hold sockets to servers users may have forgotten.
 */
export const withClient = async <T>(
  ctx: Pick<AppContext<unknown, unknown>, 'network' | 'signal' | 'log'>,
  connection: PostgresConnection,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> => {
  const address = await assertHostAllowed(connection.host, ctx.network);
  const client = new pg.Client({
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
  });
  // Without a listener, an error on an idle client (server restart) would crash the process.
  client.on('error', (error) => ctx.log.warn({ reason: error.message }, 'postgresql connection error'));
  const abort = () => {
    client.end().catch(() => {});
  };
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    await client.connect();
    return await work(client);
  } finally {
    ctx.signal.removeEventListener('abort', abort);
    await client.end().catch(() => {});
  }
};
