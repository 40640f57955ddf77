import { openAiCompatibleApp } from '../llm-common/index.js';
import { icon } from './icon.js';

export const perplexity = openAiCompatibleApp({
  key: 'perplexity',
  name: 'Perplexity',
  description:
    'Ask Perplexity’s Sonar models, which answer from the web: chats, extraction, classification, summaries; and agents.',
  icon,
  primaryColor: '#091717',
  // Chats are at /chat/completions, without /v1.
  baseUrl: 'https://api.perplexity.ai',
  apiKeyDescription: 'A Perplexity API key (perplexity.ai → Settings → API).',
  defaultModel: 'sonar',
  // The Agent API's model list, which needs a key.
  verifyPath: '/v1/models',
  // The Sonar models answer chat completions (with web search); Automatisch listed the first two.
  model: {
    kind: 'fixed',
    options: [
      { label: 'Sonar Pro', value: 'sonar-pro' },
      { label: 'Sonar', value: 'sonar' },
      { label: 'Sonar Reasoning Pro', value: 'sonar-reasoning-pro' },
      { label: 'Sonar Deep Research', value: 'sonar-deep-research' },
    ],
  },
  chat: [
    {
      key: 'sendChatPrompt',
      name: 'Send chat prompt',
      description: 'Sends a conversation to a Sonar model, which searches the web, and answers the next message.',
      input: 'messages',
      options: ['temperature', 'maxTokens', 'topP', 'topK', 'frequencyPenalty', 'presencePenalty'],
    },
  ],
});
