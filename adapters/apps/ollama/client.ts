import type { Ollama } from 'ollama';
import { MODEL_TIMEOUT_MS, vendorCall } from '../llm-common/vendor-call.js';
import type { AppContext, DynamicOption } from '../sdk/index.js';

export type OllamaAccess = Pick<AppContext, 'fetch' | 'signal' | 'apiBaseUrl'> & {
  /** An Ollama behind a proxy that wants a bearer token, or ollama.com's API. */
  readonly apiKey: string | undefined;
};

type Fetch = typeof globalThis.fetch;

/**
 * The ollama package has no time-out, and it sends the process's OLLAMA_API_KEY to ollama.com when
 * the request carries no key: a connection without one must not borrow the instance's.
 */
const connectionFetch =
  (fetch: Fetch, apiKey: string | undefined): Fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    if (apiKey) headers.set('authorization', `Bearer ${apiKey}`);
    else headers.delete('authorization');
    const signals = [AbortSignal.timeout(MODEL_TIMEOUT_MS), init?.signal].filter((s): s is AbortSignal => !!s);
    return fetch(input, { ...init, headers, signal: AbortSignal.any(signals) });
  };

/**
 * Runs one call with a client of the connection's server (its URL is the app's base URL, read by
 * `http.connectionBaseUrl`), through the kit's fetch, with the failures as the kit's errors.
 */
export const withOllama = <T>(access: OllamaAccess, call: (client: Ollama) => Promise<T>): Promise<T> => {
  const host = access.apiBaseUrl;
  if (!host) throw new Error('The Ollama connection names no server URL.');
  // Loaded on first use, as the other vendors' SDKs.
  return vendorCall(access, async (fetch) =>
    call(new (await import('ollama')).Ollama({ host, fetch: connectionFetch(fetch, access.apiKey) })),
  );
};

/** The models the server has pulled. */
export const listOllamaModels = (access: OllamaAccess): Promise<DynamicOption[]> =>
  withOllama(access, async (client) =>
    (await client.list()).models.map((model) => ({ name: model.name, value: model.model || model.name })),
  );
