import { isIP } from 'node:net';
import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import type { AppContext } from '../sdk/index.js';
import { assertHostAllowed, boolean, fieldsAuth, number, TemporaryError, text } from '../sdk/index.js';

export const imapAuth = fieldsAuth({
  fields: {
    host: text({ label: 'Host', required: true, placeholder: 'imap.example.com' }),
    port: number({ label: 'Port', required: true, default: 993, integer: true, min: 1, max: 65535 }),
    secure: boolean({
      label: 'Use TLS',
      default: true,
      description: 'On for implicit TLS (usually port 993); off upgrades with STARTTLS when the server offers it.',
    }),
    user: text({ label: 'User', required: true }),
    password: text({ label: 'Password', required: true, secret: true }),
  },
  async verify(ctx) {
    const { user, host } = ctx.auth.data;
    await withImap(ctx, ctx.auth.data, async () => {});
    return { screenName: `${user}@${host}` };
  },
});

export type ImapConnection = ReturnType<typeof imapAuth.read>;

type ClientContext = Pick<AppContext<unknown, unknown>, 'network' | 'signal'>;

/** Network failures that may pass: the server away, restarting, or slow. */
const TEMPORARY_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ETIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'GREETING_TIMEOUT',
  'NoConnection',
]);

interface ImapError {
  readonly code?: unknown;
  readonly reason?: unknown;
  readonly authenticationFailed?: unknown;
  readonly responseText?: unknown;
  readonly serverResponseCode?: unknown;
}

/**
 * What the user reads of an imapflow failure: the server's words for a refused command (its
 * own message is only "Command failed"), a refused login said so; never the password.
 */
export const imapFailure = (error: unknown): Error => {
  if (!(error instanceof Error)) return new Error(String(error));
  const { code, reason, authenticationFailed, responseText, serverResponseCode } = error as ImapError;
  // Dovecot adds how long the command took: "Mailbox doesn't exist: X (0.001 + 0.000 secs)."
  const said =
    typeof responseText === 'string' && responseText !== ''
      ? responseText.replace(/\s*\([\d.+ ]+ secs\)(?=\.?$)/, '')
      : error.message;
  if (typeof code === 'string' && code.startsWith('ERR_SSL'))
    return new Error(
      `The TLS handshake failed (${typeof reason === 'string' ? reason : code}): check the port and "Use TLS" (on for implicit TLS, usually port 993; off for STARTTLS, usually 143).`,
      { cause: error },
    );
  if (authenticationFailed === true)
    return new Error(`The IMAP server refused the user or password: ${said}`, { cause: error });
  if ((typeof code === 'string' && TEMPORARY_CODES.has(code)) || serverResponseCode === 'UNAVAILABLE')
    return new TemporaryError(error.message, { cause: error });
  return said === error.message ? error : new Error(said, { cause: error });
};

/**
 * A client to the connection's checked address, not yet connected: `withImap` runs one run's work
 * on it, a listener holds one open. imapflow logs nothing (its log would carry the session), and
 * the certificate is checked against the host name given.
 */
export const createImapClient = async (
  ctx: ClientContext,
  connection: ImapConnection,
  settings: ImapFlowOptions = {},
): Promise<ImapFlow> => {
  const address = await assertHostAllowed(connection.host, ctx.network);
  return new ImapFlow({
    host: address,
    port: connection.port,
    secure: connection.secure,
    ...(!isIP(connection.host) && { servername: connection.host }),
    auth: { user: connection.user, pass: connection.password },
    logger: false,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
    ...settings,
  });
};

/** Runs `work` on a session opened for this run only, logged out after. */
export const withImap = async <T>(
  ctx: ClientContext,
  connection: ImapConnection,
  work: (client: ImapFlow) => Promise<T>,
): Promise<T> => {
  const client = await createImapClient(ctx, connection, { disableAutoIdle: true });
  // Without a listener, an error on the socket would crash the process.
  client.on('error', () => {});
  const abort = () => client.close();
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    await client.connect();
    return await work(client);
  } catch (error) {
    throw imapFailure(error);
  } finally {
    ctx.signal.removeEventListener('abort', abort);
    await client.logout().catch(() => client.close());
  }
};
