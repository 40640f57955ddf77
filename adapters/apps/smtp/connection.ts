import { isIP } from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../sdk/index.js';
import { assertHostAllowed, boolean, fieldsAuth, number, TemporaryError, text } from '../sdk/index.js';

export const smtpAuth = fieldsAuth({
  fields: {
    host: text({ label: 'Host', required: true, placeholder: 'smtp.example.com' }),
    port: number({ label: 'Port', required: true, default: 587, integer: true, min: 1, max: 65535 }),
    user: text({ label: 'User' }),
    password: text({ label: 'Password', secret: true }),
    secure: boolean({
      label: 'Use TLS',
      default: false,
      description: 'On for implicit TLS (usually port 465); off upgrades with STARTTLS when the server offers it.',
    }),
    fromEmail: text({ label: 'From email', required: true, placeholder: 'robot@example.com' }),
  },
  async verify(ctx) {
    await withTransport(ctx, ctx.auth.data, (transport) => transport.verify());
    return { screenName: ctx.auth.data.fromEmail };
  },
});

export type SmtpConnection = ReturnType<typeof smtpAuth.read>;

/** A transport for this run only, closed after: no pooled sockets to servers a flow used once. */
export const withTransport = async <T>(
  ctx: Pick<AppContext<unknown, unknown>, 'network' | 'signal'>,
  connection: SmtpConnection,
  work: (transport: Transporter) => Promise<T>,
): Promise<T> => {
  const address = await assertHostAllowed(connection.host, ctx.network);
  const transport = nodemailer.createTransport({
    host: address,
    port: connection.port,
    secure: connection.secure,
    ...(connection.user && { auth: { user: connection.user, pass: connection.password ?? '' } }),
    // Connecting to the checked address, the certificate is still checked against the name given.
    ...(!isIP(connection.host) && { tls: { servername: connection.host } }),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  const abort = () => transport.close();
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    return await work(transport);
  } catch (error) {
    // SMTP's 4xx replies are transient by definition (RFC 5321 §4.2.1): greylisting, a full
    // queue, a server shutting down. Sending again later is what mail servers themselves do.
    const responseCode = (error as { responseCode?: unknown } | null)?.responseCode;
    if (error instanceof Error && typeof responseCode === 'number' && responseCode >= 400 && responseCode < 500)
      throw new TemporaryError(error.message, { cause: error });
    throw error;
  } finally {
    ctx.signal.removeEventListener('abort', abort);
    transport.close();
  }
};
