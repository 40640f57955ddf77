const EXCERPT_LENGTH = 300;

const squash = (text: string, length: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
};

const stringAt = (value: unknown, key: string): string | null => {
  if (typeof value !== 'object' || value === null) return null;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === 'string' && found !== '' ? found : null;
};

/** A list of errors' words: `["..."]` or `[{ message }]` (Salesforce, GraphQL, SendGrid, Intercom), joined; null when none has any. */
const listedMessages = (value: unknown): string | null => {
  if (!Array.isArray(value)) return null;
  const messages = value.flatMap((entry) => {
    const text = typeof entry === 'string' ? entry : stringAt(entry, 'message');
    return text ? [text] : [];
  });
  return messages.length > 0 ? messages.join('; ') : null;
};

/**
 * Errors by field: Jira's `{ summary: "Required." }` as `summary: Required.`, Rails' (Shopify)
 * `{ title: ["can't be blank"] }` as `title can't be blank`.
 */
const fieldMessages = (value: unknown): string | null => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const parts = Object.entries(value).flatMap(([field, messages]) => {
    if (typeof messages === 'string') return messages === '' ? [] : [`${field}: ${messages}`];
    const listed = listedMessages(messages);
    return listed ? [`${field} ${listed}`] : [];
  });
  return parts.length > 0 ? parts.join('; ') : null;
};

const fieldOf = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/**
 * The human part of an error answer: the usual `message` / `error_description` fields, a nested
 * `error.message` (Stripe, Graph), `detail` (RFC 7807, Mailchimp, Baserow), `description`
 * (Typeform) and `reason` (Zoom's token endpoint) before a bare `error` code, then lists of errors (GraphQL, Asana, Salesforce, Intercom,
 * Jira's `errorMessages`), errors by field (Jira, Shopify), ClickUp's `err`; else the text.
 */
export const remoteMessageOf = (data: unknown): string | null => {
  if (typeof data === 'string') return data.trim() === '' ? null : squash(data, EXCERPT_LENGTH);
  const errors = fieldOf(data, 'errors');
  const found =
    stringAt(data, 'error_description') ??
    stringAt(data, 'message') ??
    stringAt(fieldOf(data, 'error'), 'message') ??
    stringAt(data, 'detail') ??
    stringAt(data, 'description') ??
    stringAt(data, 'reason') ??
    stringAt(data, 'error') ??
    listedMessages(data) ??
    (typeof errors === 'string' && errors !== '' ? errors : null) ??
    listedMessages(errors) ??
    listedMessages(fieldOf(data, 'errorMessages')) ??
    fieldMessages(errors) ??
    stringAt(data, 'err');
  if (found) return squash(found, EXCERPT_LENGTH);
  return data === null || data === undefined ? null : squash(JSON.stringify(data), EXCERPT_LENGTH);
};

/** A `Retry-After` header's delay in seconds (it gives seconds or an HTTP date); null when absent or unreadable. */
export const retryAfterSeconds = (value: string | null | undefined): number | null => {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
};

/** Statuses worth trying again later: rate limits, time-outs and server errors. */
export const isRetryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** A remote answer with status >= 400 (after the OAuth refresh attempt, if any). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  /** The start of the answer's body, for error details; never the request's headers. */
  readonly bodyExcerpt: string;
  readonly remoteMessage: string | null;

  constructor(
    readonly status: number,
    readonly method: string,
    /** Origin and path only: query strings may carry API keys. */
    readonly url: string,
    body: unknown,
    readonly retryAfterSeconds: number | null,
  ) {
    const remoteMessage = remoteMessageOf(body);
    super(`${method} ${url} answered ${status}${remoteMessage ? `: ${remoteMessage}` : '.'}`);
    this.remoteMessage = remoteMessage;
    this.bodyExcerpt =
      typeof body === 'string' ? squash(body, EXCERPT_LENGTH) : squash(JSON.stringify(body) ?? '', EXCERPT_LENGTH);
  }

  get retryable(): boolean {
    return isRetryableStatus(this.status);
  }
}

export type HttpFailureKind = 'timeout' | 'too_large' | 'network' | 'invalid_request';

/** A request that got no usable answer: time-out, oversized answer, connection failure, bad URL. */
export class HttpRequestError extends Error {
  override readonly name = 'HttpRequestError';
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get retryable(): boolean {
    return this.kind === 'timeout' || this.kind === 'network';
  }
}
