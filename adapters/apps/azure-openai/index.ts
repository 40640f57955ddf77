import { apiKeyAuth, OPENAI_SAMPLING, openAiCompatibleApp } from '../llm-common/index.js';
import { matches, text } from '../sdk/index.js';
import { icon } from './icon.js';

/** A generally available version with tools and structured outputs (Automatisch sent 2023-10-01-preview). */
export const AZURE_API_VERSION = '2024-10-21';

const resourceOf = (data: Readonly<Record<string, unknown>>) => String(data.yourResourceName ?? '');
const deploymentOf = (data: Readonly<Record<string, unknown>>) => String(data.deploymentId ?? '');

export const azureOpenai = openAiCompatibleApp({
  key: 'azure-openai',
  name: 'Azure OpenAI',
  description: 'Ask a model deployed in Azure OpenAI: prompts, extraction, classification, summaries; and agents.',
  icon,
  primaryColor: '#0078d4',
  // The resource names the server; APP_BASE_URL_AZURE_OPENAI (a proxy, a test's fake) replaces it for every connection.
  endpoint: (ctx) => ({
    baseUrl: ctx.apiBaseUrl ?? `https://${resourceOf(ctx.auth.data)}.openai.azure.com/openai`,
    apiKey: String(ctx.auth.data.apiKey ?? ''),
    azure: { deployment: deploymentOf(ctx.auth.data), apiVersion: AZURE_API_VERSION },
  }),
  // The deployment is the model.
  defaultModel: (ctx) => deploymentOf(ctx.auth.data),
  model: { kind: 'none' },
  auth: (vendor) =>
    apiKeyAuth({
      fields: {
        yourResourceName: text({
          label: 'Your resource name',
          required: true,
          description: 'The Azure OpenAI resource: <name>.openai.azure.com.',
          check: matches(/^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/, 'must be a resource name (letters, digits and hyphens).'),
        }),
        deploymentId: text({
          label: 'Deployment ID',
          required: true,
          description: 'The name of the model deployment every step asks.',
          check: matches(
            /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
            'must be a deployment name (letters, digits, ., _ and -).',
          ),
        }),
      },
      apiKeyDescription: 'A key of the resource (Keys and Endpoint in the Azure portal), sent as api-key.',
      verify: vendor.verify,
    }),
  chat: [
    {
      key: 'sendPrompt',
      name: 'Send prompt',
      description: 'Sends one prompt to the connection’s deployment and answers its text, with the tokens it took.',
      input: 'prompt',
      options: OPENAI_SAMPLING,
    },
  ],
});
