import type { HttpClient, HttpRequest } from './http-client.js';
import { HttpError } from './http-errors.js';

/**
 * The text values an instant trigger's `registerHook` kept (`ctx.hook`: the vendor's hook id, its
 * signing secret...), or null when one is missing: no hook is stored, or one of another shape.
 */
export const hookFields = <const K extends string>(
  hook: unknown,
  ...keys: readonly K[]
): Readonly<Record<K, string>> | null => {
  if (typeof hook !== 'object' || hook === null) return null;
  const state = hook as Record<string, unknown>;
  return keys.every((key) => typeof state[key] === 'string' && state[key] !== '')
    ? (Object.fromEntries(keys.map((key) => [key, state[key]])) as Record<K, string>)
    : null;
};

/**
 * Asks the vendor to delete a hook (`unregisterHook`); one it no longer has (404, 410: deleted by
 * hand, expired) is gone as wanted. Any other failure throws, for the engine to log.
 */
export const deleteHook = async (http: HttpClient, request: HttpRequest): Promise<void> => {
  try {
    await http.request({ method: 'DELETE', ...request });
  } catch (error) {
    if (!(error instanceof HttpError && (error.status === 404 || error.status === 410))) throw error;
  }
};
