import { languageModelActions } from '../llm-common/index.js';
import { defineApp } from '../sdk/index.js';
import { anthropicAccess, anthropicAuth } from './auth.js';
import { ANTHROPIC_API, listAnthropicModels } from './client.js';
import { icon } from './icon.js';
import { anthropicModel } from './model.js';

const languageModel = (ctx: Parameters<typeof anthropicAccess>[0]) => anthropicModel(anthropicAccess(ctx));

const ai = languageModelActions({
  languageModel,
  model: { kind: 'listed' },
  listModels: (ctx) => listAnthropicModels(anthropicAccess(ctx)),
  chat: [
    {
      key: 'sendMessage',
      name: 'Send message',
      description: 'Sends a conversation of user and assistant messages, and answers the model’s next message.',
      input: 'messages',
      roles: ['user', 'assistant'],
      options: ['system', 'maxTokens', 'temperature', 'stopSequences', 'topP', 'topK'],
      maxTokensRequired: true,
    },
  ],
});

// The shared AI actions and their listModels are keyed at run time, so the keys are typed as text.
export const anthropic = defineApp<string, string>({
  key: 'anthropic',
  name: 'Anthropic',
  description: 'Ask Claude models: messages, tool calls, structured answers, classification and summaries.',
  icon,
  primaryColor: '#181818',
  categories: ['ai'],
  version: 1,
  auth: anthropicAuth,
  triggers: [],
  actions: ai.actions,
  dynamicData: ai.dynamicData,
  http: { baseUrl: ANTHROPIC_API },
  languageModel,
});
