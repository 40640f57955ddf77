/** NATS subjects and JetStream names, and what a flow reads of a message's data and headers. */

import { jsonOrText } from '../sdk/index.js';

const tokensOf = (subject: string): string[] | string => {
  if (subject === '') return 'must not be empty.';
  if (/\s/.test(subject)) return 'must not contain spaces.';
  const tokens = subject.split('.');
  if (tokens.some((t) => t === '')) return 'must not have empty parts (a.b.c, no leading, trailing or double dots).';
  return tokens;
};

/**
 * A subject to subscribe to: `*` stands for one whole token, `>` for the rest and only as the last
 * token (`orders.*.created`, `orders.>`).
 */
export const subjectFilterProblem = (subject: string): string | null => {
  const tokens = tokensOf(subject);
  if (typeof tokens === 'string') return tokens;
  for (const [i, token] of tokens.entries()) {
    if (token.includes('>') && (token !== '>' || i !== tokens.length - 1))
      return 'may use > only as the whole last part (orders.>).';
    if (token.includes('*') && token !== '*') return 'may use * only as a whole part (orders.*.created).';
  }
  return null;
};

/** A subject to publish to: no wildcards. */
export const subjectProblem = (subject: string): string | null => {
  const tokens = tokensOf(subject);
  if (typeof tokens === 'string') return tokens;
  return tokens.some((t) => t.includes('*') || t.includes('>'))
    ? 'must not contain the wildcards * or > (publish to one subject).'
    : null;
};

/** A stream, consumer or queue group name: no spaces, dots, wildcards or path separators. */
export const nameProblem = (name: string): string | null =>
  /^[^\s.*>/\\]+$/.test(name) ? null : 'must not contain spaces, dots, *, > or slashes.';

/** A payload as a flow reads it: the JSON value when it is JSON text, else the text (UTF-8). */
export const payloadData = (data: Uint8Array): unknown => jsonOrText(Buffer.from(data).toString('utf8'));

/** Headers as a flow reads them: each name once, its values joined by ", " as HTTP does. */
export const headersData = (
  headers: { keys(): string[]; values(key: string): string[] } | undefined,
): Record<string, string> | undefined => {
  const keys = headers?.keys() ?? [];
  if (!headers || keys.length === 0) return undefined;
  return Object.fromEntries(keys.map((key) => [key, headers.values(key).join(', ')]));
};
