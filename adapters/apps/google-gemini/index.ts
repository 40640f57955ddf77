import { promptAndChatActions } from '../llm-common/chat-parts.js';
import { languageModelActions } from '../llm-common/index.js';
import { defineApp } from '../sdk/index.js';
import { geminiAccess, geminiAuth } from './auth.js';
import { GEMINI_API, listGeminiModels } from './client.js';
import { icon } from './icon.js';
import { geminiModel } from './model.js';

const languageModel = (ctx: Parameters<typeof geminiAccess>[0]) => geminiModel(geminiAccess(ctx));

const ai = languageModelActions({
  languageModel,
  model: { kind: 'listed' },
  listModels: (ctx) => listGeminiModels(geminiAccess(ctx)),
  chat: promptAndChatActions('a Gemini model'),
});

// The shared AI actions and their listModels are keyed at run time, so the keys are typed as text.
export const googleGemini = defineApp<string, string>({
  key: 'google-gemini',
  name: 'Google Gemini',
  description:
    'Ask Gemini models through the Gemini API: chat, tool calls, structured answers, classification and summaries.',
  icon,
  primaryColor: '#1a73e8',
  categories: ['ai'],
  version: 1,
  auth: geminiAuth,
  triggers: [],
  actions: ai.actions,
  dynamicData: ai.dynamicData,
  http: { baseUrl: GEMINI_API },
  languageModel,
});
