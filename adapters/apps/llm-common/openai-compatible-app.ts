import { type App, type AppHttpSettings, type AuthDefinition, type DraftContext, defineApp } from '../sdk/index.js';
import { apiKeyAuth } from './api-key-auth.js';
import type { ChatActionSpec } from './chat-actions.js';
import type { LlmAction, ModelChoice } from './chat-arguments.js';
import { languageModelActions } from './language-model-actions.js';
import { type OpenAiCompatible, type OpenAiCompatibleOptions, openAiCompatible } from './openai-compatible.js';

export interface OpenAiCompatibleAppOptions extends Omit<OpenAiCompatibleOptions, 'endpoint'> {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly icon: string;
  readonly primaryColor: string;
  /** The vendor's API, the SDK's `baseURL` (with its `/v1`); `APP_BASE_URL_<KEY>` replaces it. */
  readonly baseUrl?: string;
  /** Where a connection reaches the API; by default `baseUrl` (or its override) with the connection's `apiKey`. */
  readonly endpoint?: OpenAiCompatibleOptions['endpoint'];
  /** The connection; by default `apiKeyAuth` checked by `verify` (the models list). */
  readonly auth?: (vendor: OpenAiCompatible) => AuthDefinition;
  /** What the default connection's `apiKey` field says. */
  readonly apiKeyDescription?: string;
  /** How steps choose the model: from `listModels` by default. */
  readonly model?: ModelChoice;
  /** The app's chat actions, under its Automatisch keys. */
  readonly chat: readonly ChatActionSpec[];
  /** Actions of the vendor's own after the shared ones (OpenAI's `checkModeration`). */
  readonly moreActions?: (vendor: OpenAiCompatible) => readonly LlmAction[];
  /** Beyond `baseUrl` (a self-hosted server's `connectionBaseUrl`). */
  readonly http?: AppHttpSettings;
}

/**
 * A whole OpenAI-compatible model app: its connection, chat actions, the shared AI actions, its
 * model dropdown and its `languageModel`, in category `ai`.
 */
export const openAiCompatibleApp = (options: OpenAiCompatibleAppOptions): App => {
  const { baseUrl } = options;
  const vendor = openAiCompatible({
    ...options,
    endpoint:
      options.endpoint ??
      ((ctx) => ({ baseUrl: ctx.apiBaseUrl ?? baseUrl ?? '', apiKey: String(ctx.auth.data.apiKey ?? '') })),
  });
  const model = options.model ?? { kind: 'listed' };
  const ai = languageModelActions({
    languageModel: vendor.languageModel,
    model,
    listModels: (ctx: DraftContext) => vendor.listModels(ctx),
    chat: options.chat,
  });
  return defineApp({
    key: options.key,
    name: options.name,
    description: options.description,
    icon: options.icon,
    primaryColor: options.primaryColor,
    categories: ['ai'],
    version: 1,
    auth:
      options.auth?.(vendor) ??
      apiKeyAuth({
        verify: vendor.verify,
        ...(options.apiKeyDescription && { apiKeyDescription: options.apiKeyDescription }),
      }),
    triggers: [],
    actions: [...ai.actions, ...(options.moreActions?.(vendor) ?? [])],
    dynamicData: ai.dynamicData,
    http: { ...(baseUrl && { baseUrl }), ...options.http },
    languageModel: vendor.languageModel,
  });
};
