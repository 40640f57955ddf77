import { type AppContext, type AuthAccess, fieldsAuth, text } from '../sdk/index.js';
import { type GeminiAccess, listGeminiModels } from './client.js';

export const geminiAuth = fieldsAuth({
  fields: {
    apiKey: text({ label: 'API key', required: true, secret: true, description: 'Google AI Studio → Get API key.' }),
  },
  async verify(ctx) {
    await listGeminiModels({ ...ctx, apiKey: ctx.auth.data.apiKey });
    return { screenName: 'Gemini API key' };
  },
});

export const geminiAccess = (ctx: AppContext<unknown, AuthAccess>): GeminiAccess => ({
  fetch: ctx.fetch,
  signal: ctx.signal,
  apiBaseUrl: ctx.apiBaseUrl,
  apiKey: geminiAuth.read(ctx.auth).apiKey,
});
