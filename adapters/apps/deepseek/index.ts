import { openAiCompatibleApp, sendPromptActions } from '../llm-common/index.js';
import { icon } from './icon.js';

export const deepseek = openAiCompatibleApp({
  key: 'deepseek',
  name: 'DeepSeek',
  description:
    'Ask DeepSeek’s chat and reasoning models: prompts, chats, extraction, classification, summaries; and agents.',
  icon,
  primaryColor: '#4d6bfe',
  baseUrl: 'https://api.deepseek.com',
  apiKeyDescription: 'A DeepSeek API key (platform.deepseek.com → API keys).',
  defaultModel: 'deepseek-chat',
  // DeepSeek has JSON mode, not structured outputs: the schema is in the prompt, and the answer is checked.
  jsonMode: 'json_object',
  chat: sendPromptActions('a DeepSeek model'),
});
