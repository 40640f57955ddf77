import type { Readable } from 'node:stream';
import { request as undiciRequest } from 'undici';
import { errorMessage } from '../../../core/domain/errors.js';
import type { Logger } from '../../../ports/logger.js';
import { HttpError, HttpRequestError, isRetryableStatus, retryAfterSeconds } from './http-errors.js';
import type { HttpTransport } from './http-transport.js';
import { assertUrlAllowed, blockedCause } from './network-guard.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface HttpRequest {
  readonly method?: HttpMethod;
  /** An absolute URL, or a path joined to the app's base URL. */
  readonly url?: string;
  /** A path joined to the app's base URL (`/user` on `https://api.example.com/v2` -> `/v2/user`). */
  readonly path?: string;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly query?: Readonly<Record<string, string | number | boolean | null | undefined>>;
  /** Text and bytes are sent as they are, URLSearchParams as a form, anything else as JSON. */
  readonly body?: unknown;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** Redirects followed (each target checked again); 0 returns the 3xx answer. Default 5. */
  readonly maxRedirects?: number;
  /**
   * Default true: answers >= 400 throw an HttpError. `retryable`: only answers worth retrying
   * (408, 429, 5xx) throw, so that the engine retries them; other answers are returned.
   */
  readonly throwHttpErrors?: boolean | 'retryable';
}

export interface HttpResponse<T = unknown> {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed when the answer is JSON, the text otherwise; null when empty. */
  readonly data: T;
}

export interface HttpClient {
  request<T = unknown>(request: HttpRequest): Promise<HttpResponse<T>>;
}

export interface HttpClientOptions {
  readonly transport: HttpTransport;
  /** Evaluated per request: it may depend on the connection (e.g. a self-hosted server's URL). */
  readonly baseUrl?: () => string | undefined;
  readonly headers?: () => Readonly<Record<string, string>>;
  /**
   * Sent only to the base URL's origin, so that a token never follows a request elsewhere. Asked
   * for each request to it, and may first renew the credentials (a token about to expire).
   */
  readonly authHeaders?: () => Promise<Readonly<Record<string, string>>>;
  /** Query parameters that authenticate (an API key in the URL): sent only to the base URL's origin too. */
  readonly authQuery?: () => Readonly<Record<string, string>>;
  /**
   * The vendor's other APIs, which get the auth too: absolute URLs on the origin `from` are sent
   * to `to` (the same origin, or the address an override put in its place), their paths kept.
   */
  readonly relatedApis?: () => readonly RelatedApi[];
  /**
   * Called once when an authenticated request answers 401, with the auth headers it carried; true
   * when a retry may succeed (the credentials were renewed, here or meanwhile).
   */
  readonly refreshAuth?: (sent: Readonly<Record<string, string>>) => Promise<boolean>;
  readonly signal?: AbortSignal;
  readonly log?: Logger;
  /** Hides what an address may carry in its path (a bot's token) from messages and logs. */
  readonly redact?: (text: string) => string;
}

export interface RelatedApi {
  readonly from: string;
  readonly to: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

const absoluteUrl = (text: string): URL | null => {
  try {
    return new URL(text);
  } catch {
    return null;
  }
};

/** Origin and path: query strings may carry keys, so they stay out of messages and logs. */
const display = (url: URL) => `${url.origin}${url.pathname}`;

const encodeBody = (body: unknown): { payload?: string | Uint8Array; contentType?: string } => {
  if (body === undefined) return {};
  if (typeof body === 'string') return { payload: body, contentType: 'text/plain; charset=utf-8' };
  if (body instanceof Uint8Array) return { payload: body, contentType: 'application/octet-stream' };
  if (body instanceof URLSearchParams) {
    return { payload: body.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  return { payload: JSON.stringify(body), contentType: 'application/json' };
};

const lowerCaseHeaders = (headers: Readonly<Record<string, string | undefined>> = {}) => {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) result[name.toLowerCase()] = value;
  return result;
};

const flattenHeaders = (headers: Record<string, string | string[] | undefined>) => {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
};

const readLimited = async (body: Readable, limit: number, what: string): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    // Leaving the loop early destroys the stream and frees the connection.
    if (size > limit) {
      throw new HttpRequestError('too_large', `${what} answered more than ${limit} bytes.`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
};

const decode = (bytes: Buffer, contentType: string): unknown => {
  if (bytes.length === 0) return null;
  const text = bytes.toString('utf8');
  if (!/[/+]json\b/i.test(contentType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** A copy of the URL with the parameters added: the original, without them, is what messages show. */
const withQuery = (url: URL, query: Readonly<Record<string, string>> | undefined): URL => {
  if (!query || Object.keys(query).length === 0) return url;
  const copy = new URL(url);
  for (const [name, value] of Object.entries(query)) copy.searchParams.set(name, value);
  return copy;
};

/**
 * The HTTP client apps get as `ctx.http`: every request goes through the guarded transport, with
 * a deadline, a size limit, the app's base URL and headers, and one token refresh on 401.
 */
export const createHttpClient = (options: HttpClientOptions): HttpClient => {
  const { transport } = options;
  const shown = (url: URL) => (options.redact ? options.redact(display(url)) : display(url));

  const relocated = (url: URL): URL => {
    const related = options.relatedApis?.().find((api) => absoluteUrl(api.from)?.origin === url.origin);
    return related ? (absoluteUrl(joinUrl(related.to, `${url.pathname}${url.search}`)) ?? url) : url;
  };

  const target = (request: HttpRequest): URL => {
    const raw = request.url ?? request.path;
    if (raw === undefined) throw new HttpRequestError('invalid_request', 'A request needs a url or a path.');
    const base = options.baseUrl?.();
    const absolute = absoluteUrl(raw);
    const url = absolute ? relocated(absolute) : base ? absoluteUrl(joinUrl(base, raw)) : null;
    if (!url) throw new HttpRequestError('invalid_request', `Not an absolute URL and no base URL: ${raw}`);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.append(name, String(value));
    }
    return url;
  };

  const carriesAuth = (url: URL) => {
    const base = options.baseUrl?.();
    if (!base || absoluteUrl(base)?.origin === url.origin) return true;
    return options.relatedApis?.().some((api) => absoluteUrl(api.to)?.origin === url.origin) ?? false;
  };

  /** One request and its redirects, under one deadline. */
  const perform = async (request: HttpRequest, first: URL) => {
    const timeoutMs = request.timeoutMs ?? transport.limits.timeoutMs;
    const limit = request.maxResponseBytes ?? transport.limits.maxResponseBytes;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    let url = first;
    let method: HttpMethod = request.method ?? 'GET';
    let body = encodeBody(request.body);
    let authenticated = false;
    let sentAuth: Readonly<Record<string, string>> = {};
    const started = Date.now();
    // Only failures of the exchange itself are translated; errors of the app's own hooks pass as they are.
    const fail = (error: unknown): never => {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      if (deadline.aborted) {
        throw new HttpRequestError('timeout', `${method} ${shown(url)} got no answer within ${timeoutMs} ms.`);
      }
      const blocked = blockedCause(error);
      if (blocked) throw blocked;
      if (error instanceof HttpRequestError) throw error;
      const reason = errorMessage(error);
      throw new HttpRequestError('network', `${method} ${shown(url)} failed: ${reason}`, { cause: error });
    };
    for (let redirects = 0; ; redirects++) {
      assertUrlAllowed(url, transport.policy);
      authenticated = carriesAuth(url) && (options.authHeaders !== undefined || options.authQuery !== undefined);
      sentAuth = authenticated && options.authHeaders ? await options.authHeaders() : {};
      const sent = authenticated ? withQuery(url, options.authQuery?.()) : url;
      const headers = {
        'user-agent': 'Conveyor',
        accept: 'application/json, */*;q=0.8',
        ...(body.contentType && { 'content-type': body.contentType }),
        ...lowerCaseHeaders(options.headers?.()),
        ...lowerCaseHeaders(sentAuth),
        ...lowerCaseHeaders(request.headers),
      };
      const answer = await undiciRequest(sent, {
        dispatcher: transport.agent,
        method,
        headers,
        body: body.payload,
        signal,
      }).catch(fail);
      const location = answer.headers.location;
      if (REDIRECTS.has(answer.statusCode) && typeof location === 'string' && redirects < (request.maxRedirects ?? 5)) {
        await answer.body.dump().catch(fail);
        url = URL.canParse(location, url.href)
          ? new URL(location, url)
          : fail(new Error(`bad redirect to ${location}`));
        if (answer.statusCode === 303 || (answer.statusCode <= 302 && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = {};
        }
        continue;
      }
      const bytes = await readLimited(answer.body, limit, `${method} ${shown(url)}`).catch(fail);
      const responseHeaders = flattenHeaders(answer.headers);
      options.log?.debug(
        { method, url: shown(url), status: answer.statusCode, durationMs: Date.now() - started },
        'app http request',
      );
      return {
        url,
        method,
        authenticated,
        sentAuth,
        response: {
          status: answer.statusCode,
          headers: responseHeaders,
          data: decode(bytes, responseHeaders['content-type'] ?? ''),
        },
      };
    }
  };

  return {
    async request<T>(request: HttpRequest): Promise<HttpResponse<T>> {
      const url = target(request);
      let outcome = await perform(request, url);
      if (outcome.response.status === 401 && outcome.authenticated && options.refreshAuth) {
        if (await options.refreshAuth(outcome.sentAuth)) outcome = await perform(request, url);
      }
      const { response } = outcome;
      const throws = request.throwHttpErrors ?? true;
      if (response.status >= 400 && (throws === 'retryable' ? isRetryableStatus(response.status) : throws)) {
        throw new HttpError(
          response.status,
          outcome.method,
          shown(outcome.url),
          response.data,
          retryAfterSeconds(response.headers['retry-after']),
        );
      }
      return response as HttpResponse<T>;
    },
  };
};
