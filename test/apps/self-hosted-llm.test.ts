import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatWithApp, loadAppDynamicData, runAppAction, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { selfHostedLlm } from '../../adapters/apps/self-hosted-llm/index.js';
import { answer, type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { describeAppContract } from './app-contract.js';

describeAppContract(selfHostedLlm);

let fake: FakeOpenAi;
beforeAll(async () => {
  // A local server that wants no key.
  fake = await startFakeOpenAi({ apiKey: null, models: ['llama3.2', 'qwen2.5'] });
});
afterAll(() => fake.close());

const auth = (extra: Record<string, unknown> = {}) => ({ screenName: 'My GPU box', apiUrl: fake.url, ...extra });

describe('self-hosted-llm', () => {
  it('reaches the server the connection names, under /v1, with or without a key', async () => {
    expect(await verifyAppAuth(selfHostedLlm, auth())).toMatchObject({ ok: true, screenName: 'My GPU box' });
    expect(fake.requests.at(-1)?.path).toBe('/v1/models');
    expect(fake.requests.at(-1)?.headers.authorization).toBeUndefined();

    await verifyAppAuth(selfHostedLlm, auth({ apiUrl: `${fake.url}/v1/`, apiKey: 'local-secret' }));
    expect(fake.requests.at(-1)?.path).toBe('/v1/models');
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer local-secret');
  });

  it('is refused on a private address unless the instance allows private networks', async () => {
    const check = await verifyAppAuth(selfHostedLlm, auth(), { allowPrivateNetworks: false });
    expect(check).toMatchObject({
      ok: false,
      reason: expect.stringContaining('private and internal network addresses'),
    });
  });

  it('lists the server’s models and sends prompts to the one chosen', async () => {
    const models = await loadAppDynamicData(selfHostedLlm, 'listModels', { auth: auth() });
    expect(models.map((m) => m.value)).toEqual(['llama3.2', 'qwen2.5']);
    fake.script(answer.text('Hello from llama'));
    const output = await runAppAction(selfHostedLlm, 'sendPrompt', {
      auth: auth(),
      parameters: { model: 'llama3.2', prompt: 'Say hello' },
    });
    expect(output).toMatchObject({ text: 'Hello from llama', model: 'llama3.2' });
  });

  it('asks for JSON mode (local servers have no JSON Schema mode) and checks the answer itself', async () => {
    fake.script(answer.json({ city: 'Oslo' }));
    const output = await runAppAction(selfHostedLlm, 'extractStructuredData', {
      auth: auth({ defaultModel: 'qwen2.5' }),
      parameters: { text: 'I live in Oslo.', fields: [{ key: 'city', value: 'text' }] },
    });
    expect(output).toMatchObject({ data: { city: 'Oslo' }, model: 'qwen2.5' });
    expect(fake.chatRequests.at(-1)?.body.response_format).toEqual({ type: 'json_object' });
  });

  it('wants a model when the connection names no default', async () => {
    await expect(
      chatWithApp(selfHostedLlm, { messages: [{ role: 'user', content: 'hi' }] }, { auth: auth() }),
    ).rejects.toThrow('Choose a model: the connection names no default model.');
  });
});
