/**
 * The console's only way to the server: the public REST interface under /api/v1. Signed in, the
 * browser holds the session in an HttpOnly cookie that no script here can read (decisions.md §31);
 * every request carries the console's header, without which the server ignores that cookie. Errors
 * arrive in the one documented shape `{errors:{field:[msg]}, meta:{type}}` and are thrown as
 * ApiError for forms to show by field.
 */
const BASE = '/api/v1';
const CONSOLE_HEADER = 'x-conveyor-console';

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly errors: FieldErrors,
  ) {
    super(Object.values(errors).flat().join(' ') || `The server answered ${status}.`);
  }
}

export interface Meta {
  readonly type: string;
  readonly count: number;
  readonly currentPage: number | null;
  readonly totalPages: number | null;
}

export interface Envelope<T> {
  readonly data: T;
  readonly meta: Meta;
}

/** An answer as `request` gives it: the envelope, and the `ETag` header (a flow's draft revision) when sent. */
export interface Reply<T> extends Envelope<T> {
  readonly etag: string | null;
}

const unauthorizedListeners = new Set<() => void>();
/** Called when any request answers 401: the session is gone or expired, so it ends here too. */
export const onUnauthorized = (listener: () => void) => {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
};

export const request = async <T>(
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
  /** Aborting it cancels the request (a wait the user stopped): the promise rejects with its AbortError. */
  signal?: AbortSignal,
): Promise<Reply<T>> => {
  const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json', [CONSOLE_HEADER]: '1' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'NetworkError', { general: ['The server cannot be reached. Check that Conveyor runs.'] });
  }
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    if (response.status === 401) {
      for (const listener of unauthorizedListeners) listener();
    }
    const errors: FieldErrors = parsed?.errors ?? { general: [`The server answered ${response.status}.`] };
    throw new ApiError(response.status, parsed?.meta?.type ?? 'Error', errors);
  }
  const envelope = (parsed ?? {
    data: null,
    meta: { type: 'None', count: 0, currentPage: null, totalPages: null },
  }) as Envelope<T>;
  return { ...envelope, etag: response.headers.get('etag') };
};

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  delete: (path: string) => request<null>('DELETE', path),
};

/** The cookie session: the server sets and clears the cookie; the console only asks. */
export const session = {
  isOpen: async () => (await request<{ signedIn: boolean }>('GET', '/session')).data.signedIn,
  open: (email: string, password: string) => request<null>('POST', '/session', { email, password }),
  close: () => request<null>('DELETE', '/session'),
};

/** A query string from the values that are set. */
export const query = (params: Record<string, string | number | boolean | null | undefined>) => {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : '';
};

export const errorsOf = (error: unknown): FieldErrors =>
  error instanceof ApiError
    ? error.errors
    : { general: [error instanceof Error ? error.message : 'Something went wrong.'] };
