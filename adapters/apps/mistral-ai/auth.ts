import { type AppContext, type AuthAccess, fieldsAuth, text } from '../sdk/index.js';
import { listMistralModels, type MistralAccess } from './client.js';

export const mistralAuth = fieldsAuth({
  fields: {
    apiKey: text({ label: 'API key', required: true, secret: true, description: 'Mistral AI console → API Keys.' }),
  },
  async verify(ctx) {
    await listMistralModels({ ...ctx, apiKey: ctx.auth.data.apiKey });
    return { screenName: 'Mistral AI API key' };
  },
});

export const mistralAccess = (ctx: AppContext<unknown, AuthAccess>): MistralAccess => ({
  fetch: ctx.fetch,
  signal: ctx.signal,
  apiBaseUrl: ctx.apiBaseUrl,
  apiKey: mistralAuth.read(ctx.auth).apiKey,
});
