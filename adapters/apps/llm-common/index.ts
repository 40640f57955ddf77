/**
 * What every language-model app shares: its AI actions (the app's own chat actions under their
 * Automatisch keys, and `extractStructuredData`, `classifyText`, `summarizeText`), the dynamic
 * data of its model dropdown, the OpenAI-compatible model over the `openai` SDK, and the mapping
 * of vendors' SDK errors to the kit's.
 *
 * An OpenAI-compatible vendor is one call, `openAiCompatibleApp({ key, ..., baseUrl, defaultModel,
 * chat })`. Another vendor's SDK builds its `LanguageModelFactory`, runs its calls through
 * `vendorCall` (its errors become the kit's), and gets its actions from
 * `languageModelActions({ languageModel, model, listModels, chat })`.
 */
export { fieldsSchema, modelFor, usageOutput } from './ai-actions.js';
export { type ApiKeyAuthOptions, apiKeyAuth } from './api-key-auth.js';
export { type ChatActionSpec, chatAction, OPENAI_SAMPLING, sendPromptActions } from './chat-actions.js';
export type { ChatOptionKey, LlmAction, MessageRole, ModelChoice } from './chat-arguments.js';
export { AnswerMismatchError, askForJson, type JsonAnswer, schemaCheck, schemaProblem } from './json-answer.js';
export {
  type LanguageModelActions,
  type LanguageModelActionsOptions,
  languageModelActions,
} from './language-model-actions.js';
export {
  chatAnswerOf,
  chatCompletionParams,
  type ModelContext,
  type OpenAiCompatible,
  type OpenAiCompatibleOptions,
  type OpenAiEndpoint,
  openAiCompatible,
} from './openai-compatible.js';
export { type OpenAiCompatibleAppOptions, openAiCompatibleApp } from './openai-compatible-app.js';
export { MODEL_TIMEOUT_MS, type VendorAccess, type VendorCallOptions, vendorCall } from './vendor-call.js';
