import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's sender and recipients. */
  readonly from: string;
  readonly to: string[];
  readonly subject: string;
  /** The decoded text body. */
  readonly text: string;
}

/** Quoted-printable, as nodemailer uses for long lines: soft breaks and =XX escapes. */
const decodeQuotedPrintable = (body: string) =>
  Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

const parse = (raw: string, from: string, to: string[]): ReceivedMail => {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { from, to, subject: header('Subject'), text };
};

export interface SmtpSinkOptions {
  /** The login the server wants (over plain text: it listens on loopback only); none by default. */
  readonly login?: { readonly user: string; readonly password: string };
  /** A port of its own choosing by default; a given one to come back where a stopped sink was. */
  readonly port?: number;
}

/** A real SMTP server on loopback that keeps what it receives, for tests to read. */
export const startSmtpSink = async (options: SmtpSinkOptions = {}) => {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  /** Recipients the server refuses, with its reply. */
  const refused = new Map<string, string>();
  const { login } = options;
  const server = new SMTPServer({
    authOptional: !login,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.password)
        callback(null, { user: login.user });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      const reason = refused.get(address.address.toLowerCase());
      if (reason === undefined) return callback();
      callback(Object.assign(new Error(reason), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    /** The server refuses mail to `address` with a 550 reply, as for a mailbox that does not exist. */
    refuse: (address: string, reason = `5.1.1 <${address}>: mailbox unavailable`) =>
      void refused.set(address.toLowerCase(), reason),
    /** The server takes mail to `address` again. */
    accept: (address: string) => void refused.delete(address.toLowerCase()),
    /** The first message to `address` (waiting up to `timeoutMs` for it). */
    async waitFor(address: string, timeoutMs = 5000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => m.to.includes(address));
        if (mail) return mail;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, left);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
