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

/** The human part of an error answer: the usual `message` / `error_description` / `error` fields, or the text. */
export const remoteMessageOf = (data: unknown): string | null => {
  if (typeof data === 'string') return data.trim() === '' ? null : squash(data, EXCERPT_LENGTH);
  const nested = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).error : null;
  const found =
    stringAt(data, 'error_description') ??
    stringAt(data, 'message') ??
    stringAt(nested, 'message') ??
    stringAt(data, 'error') ??
    stringAt(data, 'detail');
  if (found) return squash(found, EXCERPT_LENGTH);
  return data === null || data === undefined ? null : squash(JSON.stringify(data), EXCERPT_LENGTH);
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
