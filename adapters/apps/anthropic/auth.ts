import { type AppContext, type AuthAccess, fieldsAuth, text } from '../sdk/index.js';
import { type AnthropicAccess, listAnthropicModels } from './client.js';

export const anthropicAuth = fieldsAuth({
  fields: {
    apiKey: text({
      label: 'API key',
      required: true,
      secret: true,
      description: 'Anthropic Console → Settings → API keys.',
    }),
  },
  async verify(ctx) {
    // Listing models is what every key may do, and costs nothing.
    await listAnthropicModels({ ...ctx, apiKey: ctx.auth.data.apiKey });
    return { screenName: 'Anthropic API key' };
  },
});

/** The SDK's access for a step's or a model's context. */
export const anthropicAccess = (ctx: AppContext<unknown, AuthAccess>): AnthropicAccess => ({
  fetch: ctx.fetch,
  signal: ctx.signal,
  apiBaseUrl: ctx.apiBaseUrl,
  apiKey: anthropicAuth.read(ctx.auth).apiKey,
});
