import { type AppContext, HttpError, type HttpRequest, TemporaryError } from '../sdk/index.js';

/** The Graph API's error body. */
interface GraphError {
  readonly error?: { readonly message?: string; readonly code?: number; readonly error_subcode?: number };
}

/**
 * Meta answers throttling with 400 and one of these codes (API calls too many, per-number pair
 * rate, throughput, spam rate): they pass, so the engine tries again later.
 */
const THROTTLED = new Set([4, 80007, 130429, 131048, 131056]);

/** A Graph API call answering its data; Meta's refusals fail with its message, its throttling is temporary. */
export const graph = async <T>(ctx: Pick<AppContext<unknown>, 'http'>, request: HttpRequest): Promise<T> => {
  // 429 and 5xx throw the client's retryable HttpError as they are; the rest is read here.
  const response = await ctx.http.request<T | GraphError>({ ...request, throwHttpErrors: 'retryable' });
  if (response.status < 400) return response.data as T;
  const method = request.method ?? 'GET';
  const failure = new HttpError(response.status, method, request.path ?? '', response.data, null);
  const code = (response.data as GraphError | null)?.error?.code;
  if (code !== undefined && THROTTLED.has(code)) {
    throw new TemporaryError(failure.message, { cause: failure, retryAfterSeconds: 60 });
  }
  throw failure;
};
