/**
 * A message in RFC 5322 form, as Gmail's `raw` takes it (base64url). Header values are freed of
 * line breaks, so that text from an earlier step never adds a header (a Bcc), and words outside
 * ASCII are RFC 2047 encoded; the body is UTF-8 in base64.
 */
export interface OutgoingMessage {
  readonly from?: string | undefined;
  readonly fromName?: string | undefined;
  readonly to: readonly string[];
  readonly cc?: readonly string[];
  readonly bcc?: readonly string[];
  readonly replyTo?: string | undefined;
  readonly subject: string;
  readonly html: boolean;
  readonly body: string;
  /** The Message-ID replied to, and the chain before it (threading in mail clients). */
  readonly inReplyTo?: string | undefined;
  readonly references?: string | undefined;
}

const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();

/** An RFC 2047 encoded word when the text is not plain ASCII. */
const encodedWord = (value: string) =>
  /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;

/** A display name as a quoted string (or encoded word), then the address. */
const mailbox = (address: string, name?: string) => {
  const clean = oneLine(address);
  if (!name || oneLine(name) === '') return clean;
  const display = oneLine(name);
  const quoted = encodedWord(display) === display ? `"${display.replace(/(["\\])/g, '\\$1')}"` : encodedWord(display);
  return `${quoted} <${clean}>`;
};

const wrap = (base64: string) => base64.replace(/.{1,76}/g, '$&\r\n');

export const rawMessage = (message: OutgoingMessage): string => {
  const headers: [string, string | undefined][] = [
    ['From', message.from ? mailbox(message.from, message.fromName) : undefined],
    ['To', message.to.map(oneLine).join(', ') || undefined],
    ['Cc', message.cc?.map(oneLine).join(', ') || undefined],
    ['Bcc', message.bcc?.map(oneLine).join(', ') || undefined],
    ['Reply-To', message.replyTo ? oneLine(message.replyTo) || undefined : undefined],
    ['Subject', encodedWord(oneLine(message.subject))],
    ['In-Reply-To', message.inReplyTo ? oneLine(message.inReplyTo) : undefined],
    ['References', message.references ? oneLine(message.references) : undefined],
    ['MIME-Version', '1.0'],
    ['Content-Type', `${message.html ? 'text/html' : 'text/plain'}; charset="UTF-8"`],
    ['Content-Transfer-Encoding', 'base64'],
  ];
  const head = headers
    .filter((header): header is [string, string] => header[1] !== undefined)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  const text = `${head}\r\n\r\n${wrap(Buffer.from(message.body, 'utf8').toString('base64'))}`;
  return Buffer.from(text, 'utf8').toString('base64url');
};

/** A Gmail signature (HTML) for a plain-text body: line breaks kept, tags dropped, entities read. */
export const signatureAsText = (html: string): string =>
  html
    .replace(/<br\s*\/?>|<\/(div|p)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
