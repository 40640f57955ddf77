import type { GoogleGenAI } from '@google/genai';
import { MODEL_TIMEOUT_MS, vendorCall } from '../llm-common/vendor-call.js';
import type { AppContext, DynamicOption } from '../sdk/index.js';

export const GEMINI_API = 'https://generativelanguage.googleapis.com';

export type GeminiAccess = Pick<AppContext, 'fetch' | 'signal' | 'apiBaseUrl'> & { readonly apiKey: string };

const seconds = (duration: unknown) =>
  typeof duration === 'string' && /^\d+(\.\d+)?s$/.test(duration) ? Math.ceil(Number.parseFloat(duration)) : null;

/** Gemini says when to come back in the error's `google.rpc.RetryInfo` (`"retryDelay": "28s"`), not in a header. */
export const geminiRetryDelay = (body: unknown): number | null => {
  const details = (body as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return null;
  for (const detail of details) {
    const delay = seconds((detail as { retryDelay?: unknown } | null)?.retryDelay);
    if (delay !== null) return delay;
  }
  return null;
};

/**
 * Runs one call with a client of the connection: the Gemini API (never Vertex AI, whatever the
 * process's GOOGLE_GENAI_* variables say), the kit's fetch, the base URL `APP_BASE_URL_GOOGLE_GEMINI`
 * may move, one attempt (the engine retries), and its failures as the kit's errors.
 */
export const withGemini = <T>(access: GeminiAccess, call: (client: GoogleGenAI) => Promise<T>): Promise<T> =>
  vendorCall(
    access,
    // Loaded on first use: the SDK is big, and most instances never call it.
    async (fetch) =>
      call(
        new (await import('@google/genai')).GoogleGenAI({
          enterprise: false,
          apiKey: access.apiKey,
          httpOptions: {
            baseUrl: access.apiBaseUrl ?? GEMINI_API,
            fetch,
            timeout: MODEL_TIMEOUT_MS,
            retryOptions: { attempts: 1 },
          },
        }),
      ),
    { retryAfterInBody: geminiRetryDelay },
  );

/** The models that answer generateContent (not the embedding or image-only ones). */
export const listGeminiModels = (access: GeminiAccess): Promise<DynamicOption[]> =>
  withGemini(access, async (client) => {
    const models: DynamicOption[] = [];
    for await (const model of await client.models.list({ config: { pageSize: 1000 } })) {
      if (!model.name || !(model.supportedActions ?? []).includes('generateContent')) continue;
      const id = model.name.replace(/^models\//, '');
      models.push({ name: model.displayName || id, value: id });
    }
    return models;
  });
