import { type ChatOptionKey, openAiCompatibleApp } from '../llm-common/index.js';
import { icon } from './icon.js';

const SAMPLING: readonly ChatOptionKey[] = [
  'temperature',
  'maxTokens',
  'stopSequences',
  'topP',
  'topK',
  'frequencyPenalty',
  'presencePenalty',
];

export const togetherAi = openAiCompatibleApp({
  key: 'together-ai',
  name: 'Together AI',
  description:
    'Ask open models hosted by Together AI: chats, prompts, extraction, classification, summaries; and agents.',
  icon,
  primaryColor: '#000000',
  baseUrl: 'https://api.together.xyz/v1',
  apiKeyDescription: 'A Together AI API key (api.together.ai → Settings → API keys).',
  defaultModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  jsonMode: 'json_object',
  // Together lists its models as a bare array, each with a display name.
  modelName: (model) =>
    typeof model.display_name === 'string' && model.display_name ? model.display_name : String(model.id),
  chat: [
    {
      key: 'createChatCompletion',
      name: 'Create chat completion',
      description: 'Sends a conversation to an open model on Together AI and answers the next message.',
      input: 'messages',
      options: SAMPLING,
    },
    {
      key: 'createCompletion',
      name: 'Create completion',
      description: 'Sends one prompt to an open model on Together AI and answers its text, with the tokens it took.',
      input: 'prompt',
      options: SAMPLING,
    },
  ],
});
