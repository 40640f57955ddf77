import { type AppContext, type AuthAccess, fieldsAuth, httpUrl, text } from '../sdk/index.js';
import { listOllamaModels, type OllamaAccess } from './client.js';

export const ollamaAuth = fieldsAuth({
  fields: {
    serverUrl: text({
      label: 'Server URL',
      required: true,
      default: 'http://localhost:11434',
      check: httpUrl,
      description: 'Where Ollama listens (it serves /api/chat there), or https://ollama.com for its cloud.',
    }),
    apiKey: text({
      label: 'API key',
      secret: true,
      description: 'Only for ollama.com, or a server behind a proxy that wants a bearer token.',
    }),
  },
  async verify(ctx) {
    await listOllamaModels({ ...ctx, apiBaseUrl: ctx.auth.data.serverUrl, apiKey: ctx.auth.data.apiKey });
    return { screenName: new URL(ctx.auth.data.serverUrl).host };
  },
});

export const ollamaAccess = (ctx: AppContext<unknown, AuthAccess>): OllamaAccess => ({
  fetch: ctx.fetch,
  signal: ctx.signal,
  apiBaseUrl: ctx.apiBaseUrl,
  apiKey: ollamaAuth.read(ctx.auth).apiKey,
});
