import { languageModelActions } from '../llm-common/index.js';
import { defineApp } from '../sdk/index.js';
import { mistralAccess, mistralAuth } from './auth.js';
import { listMistralModels, MISTRAL_API } from './client.js';
import { icon } from './icon.js';
import { mistralModel } from './model.js';

const languageModel = (ctx: Parameters<typeof mistralAccess>[0]) => mistralModel(mistralAccess(ctx));

const ai = languageModelActions({
  languageModel,
  model: { kind: 'listed' },
  listModels: (ctx) => listMistralModels(mistralAccess(ctx)),
  chat: [
    {
      key: 'createChatCompletion',
      name: 'Create chat completion',
      description: 'Sends a conversation of system, user and assistant messages, and answers the model’s next message.',
      input: 'messages',
      options: ['temperature', 'maxTokens', 'stopSequences', 'topP', 'frequencyPenalty', 'presencePenalty'],
    },
  ],
});

// The shared AI actions and their listModels are keyed at run time, so the keys are typed as text.
export const mistralAi = defineApp<string, string>({
  key: 'mistral-ai',
  name: 'Mistral AI',
  description: 'Ask Mistral’s models: chat completions, tool calls, structured answers, classification and summaries.',
  icon,
  primaryColor: '#fa520f',
  categories: ['ai'],
  version: 1,
  auth: mistralAuth,
  triggers: [],
  actions: ai.actions,
  dynamicData: ai.dynamicData,
  http: { baseUrl: MISTRAL_API },
  languageModel,
});
