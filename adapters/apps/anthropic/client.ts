import type Anthropic from '@anthropic-ai/sdk';
import { MODEL_TIMEOUT_MS, vendorCall } from '../llm-common/vendor-call.js';
import type { AppContext, DynamicOption } from '../sdk/index.js';

/** Loaded on first use: the SDK is big, and most instances never call it. */
const loadAnthropic = async () => (await import('@anthropic-ai/sdk')).default;

export const ANTHROPIC_API = 'https://api.anthropic.com';

/** What the client needs of a context: the key and the kit's fetch and base URL. */
export type AnthropicAccess = Pick<AppContext, 'fetch' | 'signal' | 'apiBaseUrl'> & { readonly apiKey: string };

/**
 * Runs one call with a client of the connection: the kit's fetch (pool, network guard, the step's
 * signal), the base URL `APP_BASE_URL_ANTHROPIC` may move, no retries of the SDK's own (the engine
 * retries, with the vendor's Retry-After), and its failures as the kit's errors.
 */
export const withAnthropic = <T>(access: AnthropicAccess, call: (client: Anthropic) => Promise<T>): Promise<T> =>
  vendorCall(access, async (fetch) =>
    call(
      new (await loadAnthropic())({
        apiKey: access.apiKey,
        baseURL: access.apiBaseUrl ?? ANTHROPIC_API,
        fetch,
        maxRetries: 0,
        timeout: MODEL_TIMEOUT_MS,
      }),
    ),
  );

/** Every model the key may use, newest first as Anthropic lists them. */
export const listAnthropicModels = (access: AnthropicAccess): Promise<DynamicOption[]> =>
  withAnthropic(access, async (client) => {
    const models: DynamicOption[] = [];
    for await (const model of client.models.list({ limit: 1000 })) {
      models.push({ name: model.display_name || model.id, value: model.id });
    }
    return models;
  });
