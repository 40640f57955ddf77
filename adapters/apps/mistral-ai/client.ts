import type { Mistral } from '@mistralai/mistralai';
import { MODEL_TIMEOUT_MS, vendorCall } from '../llm-common/vendor-call.js';
import type { AppContext, DynamicOption } from '../sdk/index.js';

export const MISTRAL_API = 'https://api.mistral.ai';

export type MistralAccess = Pick<AppContext, 'fetch' | 'signal' | 'apiBaseUrl'> & { readonly apiKey: string };

/**
 * Runs one call with a client of the connection: the kit's fetch as the SDK's HTTP client's
 * fetcher, the base URL `APP_BASE_URL_MISTRAL_AI` may move, no retries of the SDK's own (the
 * engine retries), and its failures as the kit's errors.
 */
export const withMistral = <T>(access: MistralAccess, call: (client: Mistral) => Promise<T>): Promise<T> =>
  vendorCall(access, async (fetch) => {
    // Loaded on first use: the SDK takes seconds to load, and most instances never call it.
    const { HTTPClient, Mistral } = await import('@mistralai/mistralai');
    return call(
      new Mistral({
        apiKey: access.apiKey,
        serverURL: access.apiBaseUrl ?? MISTRAL_API,
        httpClient: new HTTPClient({ fetcher: fetch }),
        retryConfig: { strategy: 'none' },
        timeoutMs: MODEL_TIMEOUT_MS,
      }),
    );
  });

/** The models that chat (not the embedding, OCR or moderation ones), as Mistral names them. */
export const listMistralModels = (access: MistralAccess): Promise<DynamicOption[]> =>
  withMistral(access, async (client) => {
    const { data = [] } = await client.models.list();
    return data.flatMap((model) => {
      const chats = 'capabilities' in model && (model.capabilities as { completionChat?: boolean }).completionChat;
      return chats ? [{ name: model.id, value: model.id }] : [];
    });
  });
