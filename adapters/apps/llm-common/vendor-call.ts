/**
 * What the model apps share to drive their vendors' SDKs through the kit: the SDKs get `ctx.fetch`
 * (the pool, the network guard, the step's signal) wrapped so that the vendor's answers are seen,
 * and each SDK call's failures become the kit's errors, whatever classes the SDK throws. One way
 * for every vendor, rather than a table per SDK: the status, `Retry-After` and error body are read
 * from the answer itself, which every SDK wraps differently (and Gemini's drops the headers).
 */
import { errorMessage } from '../../../core/domain/errors.js';
import { blockedCause, HttpError, HttpRequestError, retryAfterSeconds } from '../sdk/index.js';

/** How long a model may take to answer one call: long answers of big models take minutes. */
export const MODEL_TIMEOUT_MS = 5 * 60_000;

type Fetch = typeof globalThis.fetch;

interface RefusedAnswer {
  readonly method: string;
  /** Origin and path only: some vendors take the key in the query. */
  readonly url: string;
  readonly status: number;
  /** In seconds: `Retry-After`, or OpenAI's finer `retry-after-ms`. */
  readonly retryAfter: number | null;
  readonly body: unknown;
}

const retryAfterOf = (headers: Headers): number | null => {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Math.ceil(Number(ms) / 1000));
  return retryAfterSeconds(headers.get('retry-after'));
};

/** The fetch an SDK gets for one call, and what it saw. */
interface VendorFetch {
  readonly fetch: Fetch;
  /** The last answer with status >= 400, if any. */
  refused(): RefusedAnswer | null;
  /** What the last request that got no answer threw (a refused connection, a blocked address). */
  unanswered(): unknown;
}

const shownUrl = (raw: string) => {
  const url = new URL(raw);
  return `${url.origin}${url.pathname}`;
};

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const watchFetch = (fetch: Fetch): VendorFetch => {
  let refused: RefusedAnswer | null = null;
  let unanswered: unknown = null;
  return {
    refused: () => refused,
    unanswered: () => unanswered,
    async fetch(input, init) {
      const url = input instanceof Request ? input.url : String(input);
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      let response: Response;
      try {
        response = await fetch(input, init);
      } catch (error) {
        unanswered = error;
        throw error;
      }
      if (response.status >= 400) {
        // The SDK reads the body too: a copy is read here, of an error answer, which is small.
        const text = await response
          .clone()
          .text()
          .catch(() => '');
        refused = {
          method: method.toUpperCase(),
          url: shownUrl(url),
          status: response.status,
          retryAfter: retryAfterOf(response.headers),
          body: text === '' ? null : parsed(text),
        };
      }
      return response;
    },
  };
};

const isAbort = (error: unknown) =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

export interface VendorCallOptions {
  /** Where a vendor says when to come back in its error body (Gemini's RetryInfo), in seconds. */
  readonly retryAfterInBody?: (body: unknown) => number | null;
}

/** What a call needs of the app's context: `ctx.fetch`, and the step's signal (once it aborted, its reason is what the call throws). */
export interface VendorAccess {
  readonly fetch: Fetch;
  readonly signal: AbortSignal;
}

/**
 * Runs one SDK call with a client made on the fetch given (make one per call). A vendor's refusal becomes an `HttpError` with its status, words and
 * `Retry-After` (the engine retries 429 and 5xx, and a 401 fails at once); no answer at all becomes
 * an `HttpRequestError` (timeout or network, both retried); a blocked address stays what it is.
 * Anything else (the SDK refusing an answer it cannot read) passes as it is.
 */
export const vendorCall = async <T>(
  access: VendorAccess,
  call: (fetch: Fetch) => Promise<T>,
  options: VendorCallOptions = {},
): Promise<T> => {
  const vendor = watchFetch(access.fetch);
  try {
    return await call(vendor.fetch);
  } catch (error) {
    if (access.signal.aborted) throw access.signal.reason ?? error;
    const refused = vendor.refused();
    if (refused) {
      const retryAfter = refused.retryAfter ?? options.retryAfterInBody?.(refused.body);
      throw new HttpError(refused.status, refused.method, refused.url, refused.body, retryAfter ?? null);
    }
    const unanswered = vendor.unanswered();
    if (unanswered === null) throw error;
    const blocked = blockedCause(unanswered);
    if (blocked) throw blocked;
    if (isAbort(unanswered)) {
      throw new HttpRequestError('timeout', `The model got no answer within ${MODEL_TIMEOUT_MS / 1000} s.`, {
        cause: unanswered,
      });
    }
    throw new HttpRequestError('network', `The model's server could not be reached: ${errorMessage(unanswered)}`, {
      cause: unanswered,
    });
  }
};
