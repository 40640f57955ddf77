import { openAiCompatibleApp, sendPromptActions } from '../llm-common/index.js';
import { icon } from './icon.js';

export const groq = openAiCompatibleApp({
  key: 'groq',
  name: 'Groq',
  description:
    'Ask open models on Groq’s fast inference: prompts, chats, extraction, classification, summaries; and agents.',
  icon,
  primaryColor: '#f55036',
  // GroqCloud's OpenAI-compatible API.
  baseUrl: 'https://api.groq.com/openai/v1',
  apiKeyDescription: 'A GroqCloud API key (console.groq.com → API keys).',
  defaultModel: 'llama-3.3-70b-versatile',
  // Structured outputs only on some of its models; JSON mode on all.
  jsonMode: 'json_object',
  chat: sendPromptActions('a model on Groq'),
});
