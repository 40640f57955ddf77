import type { FetchMessageObject, MessageAddressObject, MessageStructureObject } from 'imapflow';

/** A message's id across sessions and redeliveries: its mailbox's UIDVALIDITY and its UID. */
export const emailId = (uidValidity: bigint | number | string, uid: number) => `${uidValidity}:${uid}`;

/** The part numbers of a message's first inline text/plain and text/html bodies. */
export interface TextParts {
  readonly text?: string;
  readonly html?: string;
}

/**
 * Where the readable bodies are: the first text/plain and text/html parts, depth first, that are
 * not attachments and not inside an attached message. A message of one part is part "1".
 */
export const findTextParts = (structure: MessageStructureObject | undefined): TextParts => {
  let text: string | undefined;
  let html: string | undefined;
  const visit = (node: MessageStructureObject) => {
    const type = node.type.toLowerCase();
    if (type === 'message/rfc822' || node.disposition?.toLowerCase() === 'attachment') return;
    if (node.childNodes) {
      for (const child of node.childNodes) visit(child);
      return;
    }
    const part = node.part ?? '1';
    if (type === 'text/plain') text ??= part;
    if (type === 'text/html') html ??= part;
  };
  if (structure) visit(structure);
  return { ...(text !== undefined && { text }), ...(html !== undefined && { html }) };
};

const ENTITIES: Readonly<Record<string, string>> = { nbsp: ' ', lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };

/** Readable text of an HTML body, for a message without a plain text one: tags out, lines kept. */
export const htmlToText = (html: string): string =>
  html
    .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\b[^>]*>|<\/(p|div|li|tr|h[1-6]|blockquote|table)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(nbsp|lt|gt|quot|apos|amp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

export interface EmailAddress {
  readonly name: string;
  readonly address: string;
}

const addresses = (list: readonly MessageAddressObject[] | undefined): EmailAddress[] =>
  (list ?? []).map((a) => ({ name: a.name ?? '', address: a.address ?? '' }));

const isoDate = (value: Date | string | undefined): string | null => {
  if (value === undefined) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/**
 * A message's flags, without \\Recent: that one only says which session saw the message first,
 * no client can set it, and IMAP4rev2 dropped it.
 */
export const flagList = (flags: ReadonlySet<string> | undefined): string[] =>
  [...(flags ?? [])].filter((flag) => flag !== '\\Recent');

/** The decoded bodies of a message, each cut at the bound it was read with. */
export interface Bodies {
  readonly text?: string;
  readonly html?: string;
}

/** What the newEmail trigger emits for one message (and `run` shows as its sample). */
export const emailOutput = (
  mailbox: string,
  uidValidity: bigint | number,
  message: Pick<FetchMessageObject, 'uid' | 'envelope' | 'flags' | 'size' | 'internalDate'>,
  bodies: Bodies,
) => {
  const envelope = message.envelope ?? {};
  return {
    uid: message.uid,
    uidValidity: Number(uidValidity),
    mailbox,
    messageId: envelope.messageId ?? null,
    subject: envelope.subject ?? '',
    from: addresses(envelope.from)[0] ?? null,
    to: addresses(envelope.to),
    cc: addresses(envelope.cc),
    date: isoDate(envelope.date) ?? isoDate(message.internalDate),
    text: bodies.text ?? (bodies.html === undefined ? '' : htmlToText(bodies.html)),
    ...(bodies.html !== undefined && { html: bodies.html }),
    flags: flagList(message.flags),
    size: message.size ?? 0,
  };
};

export type EmailOutput = ReturnType<typeof emailOutput>;
