import type { ImapFlow } from 'imapflow';
import { type Bodies, emailOutput, findTextParts } from './message.js';

/** The most of a body handed on, in bytes: a flow needs the text, not a 20 MB newsletter. */
export const TEXT_LIMIT = 100_000;
export const HTML_LIMIT = 200_000;

/** A body part, decoded (transfer encoding, charset to UTF-8) by imapflow, cut at `limit` bytes. */
const downloadText = async (client: ImapFlow, uid: number, part: string, limit: number) => {
  const { content } = await client.download(String(uid), part, { uid: true, maxBytes: limit });
  if (!content) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  // A cut in the middle of a character leaves a replacement character at the end; the line
  // break that ends a body is not part of its text.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\uFFFD+$/, '')
    .trimEnd();
};

/**
 * The message with this UID in the open mailbox, as the trigger's output; null when there is none.
 * Only BODY.PEEK is fetched: reading a message does not mark it \Seen.
 */
export const readEmail = async (client: ImapFlow, uid: number | '*') => {
  const mailbox = client.mailbox;
  if (!mailbox) throw new Error('No mailbox is open.');
  const message = await client.fetchOne(
    String(uid),
    { uid: true, envelope: true, flags: true, size: true, bodyStructure: true, internalDate: true },
    { uid: uid !== '*' },
  );
  if (!message) return null;
  const parts = findTextParts(message.bodyStructure);
  const text = parts.text === undefined ? undefined : await downloadText(client, message.uid, parts.text, TEXT_LIMIT);
  const html = parts.html === undefined ? undefined : await downloadText(client, message.uid, parts.html, HTML_LIMIT);
  const bodies: Bodies = { ...(text !== undefined && { text }), ...(html !== undefined && { html }) };
  return emailOutput(mailbox.path, mailbox.uidValidity, message, bodies);
};
