import { promptAndChatActions } from '../llm-common/chat-parts.js';
import { languageModelActions } from '../llm-common/index.js';
import { defineApp } from '../sdk/index.js';
import { ollamaAccess, ollamaAuth } from './auth.js';
import { listOllamaModels } from './client.js';
import { icon } from './icon.js';
import { ollamaModel } from './model.js';

const languageModel = (ctx: Parameters<typeof ollamaAccess>[0]) => ollamaModel(ollamaAccess(ctx));

const ai = languageModelActions({
  languageModel,
  model: { kind: 'listed' },
  listModels: (ctx) => listOllamaModels(ollamaAccess(ctx)),
  chat: promptAndChatActions('a model of the Ollama server'),
});

// The shared AI actions and their listModels are keyed at run time, so the keys are typed as text.
export const ollama = defineApp<string, string>({
  key: 'ollama',
  name: 'Ollama',
  description:
    'Ask the models of your own Ollama server (or ollama.com): chat, tool calls, structured answers, classification and summaries.',
  icon,
  primaryColor: '#000000',
  categories: ['ai'],
  version: 1,
  auth: ollamaAuth,
  triggers: [],
  actions: ai.actions,
  dynamicData: ai.dynamicData,
  // The connection names the server: its URL is the base URL.
  http: { connectionBaseUrl: (auth) => ollamaAuth.read(auth).serverUrl },
  languageModel,
});
