import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatWithApp, runAppAction, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { AZURE_API_VERSION, azureOpenai } from '../../adapters/apps/azure-openai/index.js';
import { answer, type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { describeAppContract } from './app-contract.js';

describeAppContract(azureOpenai);

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

const auth = () => ({ ...fake.auth, yourResourceName: 'acme-eu', deploymentId: 'gpt4o-prod' });
const call = (parameters: Record<string, unknown> = {}) => ({
  baseUrl: `${fake.url}/openai`,
  auth: auth(),
  parameters,
});

describe('azure-openai', () => {
  it('verifies by listing the resource’s models, with the key as api-key and the API version', async () => {
    expect(await verifyAppAuth(azureOpenai, auth(), { baseUrl: `${fake.url}/openai` })).toMatchObject({
      ok: true,
      screenName: 'Fake OpenAI',
    });
    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe('/openai/models');
    expect(sent?.query['api-version']).toBe(AZURE_API_VERSION);
    expect(sent?.headers['api-key']).toBe(fake.auth.apiKey);
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it('refuses a resource name that is not one, before any request', async () => {
    const check = await verifyAppAuth(azureOpenai, { ...auth(), yourResourceName: 'evil.example/x' });
    expect(check).toMatchObject({ ok: false });
  });

  it('sendPrompt asks the connection’s deployment, which names the model', async () => {
    fake.script(answer.text('Hi!'));
    const output = await runAppAction(azureOpenai, 'sendPrompt', call({ prompt: 'Hello', maxTokens: 20 }));
    expect(output).toMatchObject({ text: 'Hi!', model: 'gpt4o-prod' });
    const sent = fake.chatRequests.at(-1);
    expect(sent?.path).toBe('/openai/deployments/gpt4o-prod/chat/completions');
    expect(sent?.query['api-version']).toBe(AZURE_API_VERSION);
    expect(sent?.body).toMatchObject({ model: 'gpt4o-prod', max_tokens: 20 });
  });

  it('has no model argument: the shared actions ask the deployment too', async () => {
    expect(azureOpenai.manifest.actions.flatMap((a) => a.arguments.map((x) => x.key))).not.toContain('model');
    fake.script(answer.json({ label: 'spam', reason: 'An offer.' }));
    const output = await runAppAction(
      azureOpenai,
      'classifyText',
      call({ text: 'Win a prize!', labels: [{ key: 'spam' }, { key: 'ham' }] }),
    );
    expect(output).toMatchObject({ label: 'spam' });
    expect(fake.chatRequests.at(-1)?.path).toBe('/openai/deployments/gpt4o-prod/chat/completions');
  });

  it('is a language model for agents', async () => {
    fake.script(answer.toolCalls([{ name: 'search', arguments: { q: 'x' } }]));
    const reply = await chatWithApp(
      azureOpenai,
      {
        messages: [{ role: 'user', content: 'Look it up' }],
        tools: [{ name: 'search', description: 'Searches.', inputSchema: { type: 'object', properties: {} } }],
      },
      { baseUrl: `${fake.url}/openai`, auth: auth() },
    );
    expect(reply.toolCalls).toMatchObject([{ name: 'search', arguments: { q: 'x' } }]);
  });
});
