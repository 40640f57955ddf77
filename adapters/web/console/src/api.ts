/**
 * The console's only way to the server: the public REST interface under /api/v1, with the access
 * token from sign-in kept in localStorage. Errors arrive in the one documented shape
 * `{errors:{field:[msg]}, meta:{type}}` and are thrown as ApiError for forms to show by field.
 */
const TOKEN_KEY = 'conveyor.accessToken';
const BASE = '/api/v1';

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

export const token = {
  get: (): string | null => localStorage.getItem(TOKEN_KEY),
  set: (value: string) => localStorage.setItem(TOKEN_KEY, value),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

const unauthorizedListeners = new Set<() => void>();
/** Called when any request answers 401: the token is gone or expired, so the session ends. */
export const onUnauthorized = (listener: () => void) => {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
};

export const request = async <T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> => {
  const headers: Record<string, string> = { accept: 'application/json' };
  const current = token.get();
  if (current) headers.authorization = `Bearer ${current}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
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
    if (response.status === 401 && current) {
      token.clear();
      for (const listener of unauthorizedListeners) listener();
    }
    const errors: FieldErrors = parsed?.errors ?? { general: [`The server answered ${response.status}.`] };
    throw new ApiError(response.status, parsed?.meta?.type ?? 'Error', errors);
  }
  return (parsed ?? {
    data: null,
    meta: { type: 'None', count: 0, currentPage: null, totalPages: null },
  }) as Envelope<T>;
};

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  delete: (path: string) => request<null>('DELETE', path),
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
