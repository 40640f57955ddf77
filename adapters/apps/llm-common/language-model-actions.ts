import type { DraftContext, DynamicDataHandler, DynamicOption, LanguageModelFactory } from '../sdk/index.js';
import { sharedAiActions } from './ai-actions.js';
import { type ChatActionSpec, chatAction } from './chat-actions.js';
import type { LlmAction, ModelChoice } from './chat-arguments.js';

export interface LanguageModelActionsOptions {
  /** The app's model (its `languageModel`), made per step from the step's context. */
  readonly languageModel: LanguageModelFactory;
  /** How steps choose the model; `listed` needs `listModels`. */
  readonly model: ModelChoice;
  /** The vendor's models, for the `listModels` dropdown. */
  readonly listModels?: (ctx: DraftContext) => Promise<readonly DynamicOption[]>;
  /** The app's own chat actions, first in its list. */
  readonly chat: readonly ChatActionSpec[];
}

export interface LanguageModelActions {
  /** The chat actions, then `extractStructuredData`, `classifyText` and `summarizeText`. */
  readonly actions: readonly LlmAction[];
  /** `{ listModels }` when the model is listed, else empty: the app's `dynamicData`. */
  readonly dynamicData: Readonly<Record<string, DynamicDataHandler>>;
}

/** The actions and dynamic data of a language-model app, for its `defineApp`. */
export const languageModelActions = (options: LanguageModelActionsOptions): LanguageModelActions => {
  if (options.model.kind === 'listed' && !options.listModels) {
    throw new Error('A model chosen from the vendor’s list needs listModels.');
  }
  return {
    actions: [
      ...options.chat.map((spec) => chatAction(options.languageModel, options.model, spec)),
      ...sharedAiActions(options.languageModel, options.model),
    ],
    dynamicData: options.model.kind === 'listed' && options.listModels ? { listModels: options.listModels } : {},
  };
};
