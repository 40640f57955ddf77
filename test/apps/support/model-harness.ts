/**
 * Asks a model app's LanguageModel through the catalog and the step runner, as the agent step
 * and the AI actions do (the harness's chatWithApp and chatWithAppOutcome): the connection's
 * credentials, the base URL moved to a fake vendor, the kit's guarded fetch. `chatOutcome`
 * answers what a run would record (a 429 as a retryable failure with its delay); `chatWith`
 * answers the ChatAnswer or throws what the model threw.
 */
import { chatWithApp, chatWithAppOutcome } from '../../../adapters/apps/app-harness.js';
import type { App } from '../../../adapters/apps/sdk/index.js';
import type { Credentials } from '../../../core/domain/app.js';
import type { ChatAnswer, ChatRequest } from '../../../ports/language-model.js';
import type { ChatOutcome } from '../../../ports/step-runner.js';

export interface ModelCall {
  readonly auth: Credentials;
  /** The fake vendor, as `APP_BASE_URL_<KEY>` would set it; none for apps whose connection names the server. */
  readonly baseUrl?: string;
  readonly allowPrivateNetworks?: boolean;
  readonly signal?: AbortSignal;
}

export const chatWith = (app: App, chat: ChatRequest, call: ModelCall): Promise<ChatAnswer> =>
  chatWithApp(app, chat, { ...call, execution: null });

export const chatOutcome = (app: App, chat: ChatRequest, call: ModelCall): Promise<ChatOutcome> =>
  chatWithAppOutcome(app, chat, { ...call, execution: null });
