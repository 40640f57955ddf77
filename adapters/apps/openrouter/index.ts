import { openAiCompatibleApp } from '../llm-common/index.js';
import { icon } from './icon.js';

export const openrouter = openAiCompatibleApp({
  key: 'openrouter',
  name: 'OpenRouter',
  description:
    'Ask the models of many vendors through OpenRouter: chats, extraction, classification, summaries; and agents.',
  icon,
  primaryColor: '#71717a',
  baseUrl: 'https://openrouter.ai/api/v1',
  apiKeyDescription: 'An OpenRouter API key (openrouter.ai → Keys).',
  defaultModel: 'openai/gpt-4o-mini',
  // Its model list answers without a key: the key is checked where it is described.
  verifyPath: '/key',
  chat: [
    {
      key: 'createChatCompletion',
      name: 'Create chat completion',
      description: 'Sends a conversation to any model OpenRouter routes to and answers the next message.',
      input: 'messages',
      options: ['temperature', 'maxTokens', 'stopSequences', 'topP', 'frequencyPenalty', 'presencePenalty'],
    },
  ],
});
