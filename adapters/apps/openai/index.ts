import { openAiCompatibleApp, sendPromptActions } from '../llm-common/index.js';
import { defineAction, text } from '../sdk/index.js';
import { icon } from './icon.js';

export const openai = openAiCompatibleApp({
  key: 'openai',
  name: 'OpenAI',
  description:
    'Ask OpenAI’s GPT models: prompts, conversations, extraction, classification, summaries, moderation; and agents.',
  icon,
  primaryColor: '#000000',
  baseUrl: 'https://api.openai.com/v1',
  apiKeyDescription: 'An API key of your OpenAI project (platform.openai.com → API keys).',
  defaultModel: 'gpt-4o-mini',
  chat: sendPromptActions('an OpenAI model'),
  moreActions: (vendor) => [
    defineAction({
      key: 'checkModeration',
      name: 'Check moderation',
      description:
        'Checks a text for hate, harassment, self-harm, sexual or violent content with OpenAI’s moderation model.',
      arguments: {
        input: text({ label: 'Input', required: true, acceptsVariables: true, description: 'The text to check.' }),
      },
      async run(ctx) {
        const answer = await vendor.call(ctx, (client) =>
          client.moderations.create({ input: ctx.parameters.input }, { signal: ctx.signal }),
        );
        return { ...answer.results[0], model: answer.model };
      },
    }),
  ],
});
