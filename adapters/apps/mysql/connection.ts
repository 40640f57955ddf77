import { connect as connectTcp } from 'node:net';
import mysql from 'mysql2/promise';
import type { AppContext } from '../sdk/index.js';
import { assertHostAllowed, boolean, fieldsAuth, number, TemporaryError, text } from '../sdk/index.js';

export const mysqlAuth = fieldsAuth({
  fields: {
    host: text({ label: 'Host', required: true, placeholder: 'db.example.com' }),
    port: number({ label: 'Port', required: true, default: 3306, integer: true, min: 1, max: 65535 }),
    user: text({ label: 'User', required: true }),
    password: text({ label: 'Password', secret: true }),
    database: text({ label: 'Database', required: true }),
    ssl: boolean({ label: 'Use SSL', default: false, description: 'The server certificate and name are verified.' }),
  },
  async verify(ctx) {
    const { host, database, user } = ctx.auth.data;
    await withConnection(ctx, ctx.auth.data, (connection) => connection.query('SELECT 1'));
    return { screenName: `${user}@${host}/${database}` };
  },
});

export type MysqlConnection = ReturnType<typeof mysqlAuth.read>;

/**
 * mysql2's codes of failures that may pass: the network or the server went away (restarting,
 * shutting down, killed our connection), too many connections, or the statement lost a race for a
 * lock (deadlock, lock wait time-out). A run retries these; any other error (bad SQL, a constraint,
 * access denied) fails it.
 */
const TEMPORARY_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_NORMAL_SHUTDOWN',
  'ER_SHUTDOWN_COMPLETE',
  'ER_CONNECTION_KILLED',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'ER_OUT_OF_RESOURCES',
  'ER_NET_READ_ERROR',
  'ER_NET_READ_INTERRUPTED',
  'ER_NET_ERROR_ON_WRITE',
  'ER_NET_WRITE_INTERRUPTED',
  'ER_CLIENT_INTERACTION_TIMEOUT',
]);

/** MariaDB's own numbers, which mysql2 (MySQL's list) has no code for: ER_CONNECTION_KILLED. */
const TEMPORARY_MARIADB_ERRNOS = new Set([1927]);

export const isTemporaryMysqlError = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return (
    (typeof code === 'string' && TEMPORARY_CODES.has(code)) ||
    (typeof errno === 'number' && TEMPORARY_MARIADB_ERRNOS.has(errno))
  );
};

const CONNECT_TIMEOUT_MS = 10_000;

export type Connection = mysql.Connection;

/**
 * Runs `work` on a connection opened for this run only and always closed after, as the postgresql
 * app does: runs are rare and short, and a pool per connection would hold sockets to servers users
 * may have forgotten. The socket goes to the address the network guard returned; the host name
 * stays the TLS server name, checked against the certificate.
 */
export const withConnection = async <T>(
  ctx: Pick<AppContext<unknown, unknown>, 'network' | 'signal' | 'log'>,
  settings: MysqlConnection,
  work: (connection: Connection) => Promise<T>,
): Promise<T> => {
  const address = await assertHostAllowed(settings.host, ctx.network);
  let connection: Connection | null = null;
  const abort = () => {
    connection?.destroy();
  };
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    connection = await mysql.createConnection({
      host: settings.host,
      port: settings.port,
      stream: () => connectTcp({ host: address, port: settings.port, noDelay: true }),
      user: settings.user,
      ...(settings.password !== undefined && { password: settings.password }),
      database: settings.database,
      ...(settings.ssl && { ssl: { rejectUnauthorized: true, verifyIdentity: true } }),
      connectTimeout: CONNECT_TIMEOUT_MS,
      charset: 'utf8mb4',
      // Dates and times as the server writes them: exact (microseconds kept), no time zone guessed.
      dateStrings: true,
      // Integers past 2^53 (and DECIMAL, always) come as text rather than rounded numbers.
      supportBigNumbers: true,
      multipleStatements: false,
    });
    // Without a listener, an error on an idle connection (server restart) would crash the process.
    connection.on('error', (error: Error) => ctx.log.warn({ reason: error.message }, 'mysql connection error'));
    return await work(connection);
  } catch (error) {
    if (isTemporaryMysqlError(error)) throw new TemporaryError((error as Error).message, { cause: error });
    throw error;
  } finally {
    ctx.signal.removeEventListener('abort', abort);
    await connection?.end().catch(() => connection?.destroy());
  }
};
