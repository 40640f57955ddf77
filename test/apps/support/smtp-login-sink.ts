import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

interface Received {
  readonly from: string;
  readonly to: readonly string[];
  readonly raw: string;
}

export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 'smtp-secret-password';

/** Recipients the sink refuses, with the reply code: a greylisting server (451) and a missing mailbox (550). */
export const GREYLISTED = 'greylisted@example.com';
export const UNKNOWN_MAILBOX = 'nobody@example.com';

/** An SMTP server on loopback that wants a login and keeps what it receives. */
export const startAuthenticatedSink = async () => {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const refusal = { [GREYLISTED]: [451, 'Greylisted, try again later'], [UNKNOWN_MAILBOX]: [550, 'No such user'] }[
        address.address
      ] as [number, string] | undefined;
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal[1]), { responseCode: refusal[0] }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};
