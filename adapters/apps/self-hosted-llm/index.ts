import { apiKeyAuth, openAiCompatibleApp, sendPromptActions } from '../llm-common/index.js';
import { httpUrl, text } from '../sdk/index.js';
import { icon } from './icon.js';

/** Automatisch's requests went to `<apiUrl>/v1/...`: an address given with its `/v1` is taken as it is. */
const v1Of = (apiUrl: string) =>
  /\/v1\/?$/.test(apiUrl) ? apiUrl.replace(/\/$/, '') : `${apiUrl.replace(/\/+$/, '')}/v1`;

const fields = {
  apiUrl: text({
    label: 'API URL',
    required: true,
    check: httpUrl,
    description: 'Your OpenAI-compatible server (Ollama, vLLM, LocalAI, LM Studio...), e.g. http://llm.internal:11434.',
  }),
  defaultModel: text({ label: 'Default model', description: 'The model agents and AI steps ask when they name none.' }),
};

export const selfHostedLlm = openAiCompatibleApp({
  key: 'self-hosted-llm',
  name: 'Self-hosted LLM',
  description:
    'Ask models on your own OpenAI-compatible server: prompts, chats, extraction, classification, summaries; and agents.',
  icon,
  primaryColor: '#000000',
  // The connection's server is the app's base URL (`connectionBaseUrl`), so it passes the network guard like any.
  endpoint: (ctx) => ({ baseUrl: v1Of(ctx.apiBaseUrl ?? ''), apiKey: String(ctx.auth.data.apiKey ?? '') }),
  defaultModel: (ctx) => String(ctx.auth.data.defaultModel ?? ''),
  // Ollama, vLLM, llama.cpp and LM Studio all take JSON mode; not all a JSON Schema.
  jsonMode: 'json_object',
  auth: (vendor) =>
    apiKeyAuth({
      fields,
      apiKeyRequired: false,
      apiKeyDescription: 'Sent as Authorization: Bearer, when your server wants one.',
      verify: vendor.verify,
    }),
  chat: sendPromptActions('a model of your server'),
  http: { connectionBaseUrl: (access) => (typeof access.data.apiUrl === 'string' ? access.data.apiUrl : undefined) },
});
