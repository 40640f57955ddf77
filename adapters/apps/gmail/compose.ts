import { type OutgoingMessage, rawMessage, signatureAsText } from './mime.js';

export interface ComposeParameters {
  readonly tos: readonly string[];
  readonly ccs: readonly string[];
  readonly bccs: readonly string[];
  readonly from?: string | undefined;
  readonly fromName?: string | undefined;
  readonly replyTo?: string | undefined;
  readonly subject: string;
  readonly bodyType: 'plain' | 'html';
  readonly emailBody: string;
  readonly signature?: string | undefined;
}

/** The step's message as Gmail's `raw`: the signature (HTML, as Gmail keeps it) below the body. */
export const composed = (p: ComposeParameters, thread: Partial<OutgoingMessage> = {}): string => {
  const html = p.bodyType === 'html';
  const signature = p.signature ? (html ? `<br><br>${p.signature}` : `\r\n\r\n${signatureAsText(p.signature)}`) : '';
  return rawMessage({
    from: p.from,
    fromName: p.fromName,
    to: p.tos,
    cc: p.ccs,
    bcc: p.bccs,
    replyTo: p.replyTo,
    subject: p.subject,
    html,
    body: `${p.emailBody}${signature}`,
    ...thread,
  });
};
