import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAppAction, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { perplexity } from '../../adapters/apps/perplexity/index.js';
import { answer, type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { describeAppContract } from './app-contract.js';

describeAppContract(perplexity);

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['sonar', 'sonar-pro'] });
});
afterAll(() => fake.close());

describe('perplexity', () => {
  it('verifies the key on the models list, and chats at /chat/completions', async () => {
    expect(await verifyAppAuth(perplexity, fake.auth, { baseUrl: fake.url })).toMatchObject({ ok: true });
    expect(fake.requests.at(-1)?.path).toBe('/v1/models');

    fake.script(answer.text('It rained.'));
    const output = await runAppAction(perplexity, 'sendChatPrompt', {
      baseUrl: fake.url,
      auth: fake.auth,
      parameters: { model: 'sonar-pro', messages: [{ role: 'user', content: 'Weather in Oslo yesterday?' }], topK: 5 },
    });
    expect(output).toMatchObject({ text: 'It rained.', model: 'sonar-pro' });
    const sent = fake.chatRequests.at(-1);
    expect(sent?.path).toBe('/chat/completions');
    expect(sent?.body).toMatchObject({ model: 'sonar-pro', top_k: 5 });
  });

  it('offers its Sonar models, not another', async () => {
    const model = perplexity.manifest.actions[0]?.arguments.find((a) => a.key === 'model');
    expect(model?.options?.map((o) => o.value)).toEqual([
      'sonar-pro',
      'sonar',
      'sonar-reasoning-pro',
      'sonar-deep-research',
    ]);
    await expect(
      runAppAction(perplexity, 'sendChatPrompt', {
        baseUrl: fake.url,
        auth: fake.auth,
        parameters: { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] },
      }),
    ).rejects.toMatchObject({ fields: { model: [expect.stringContaining('must be one of')] } });
  });

  it('summarizes with its default model when none is chosen', async () => {
    fake.script(answer.text('Short.'));
    const output = await runAppAction(perplexity, 'summarizeText', {
      baseUrl: fake.url,
      auth: fake.auth,
      parameters: { text: 'Long text.' },
    });
    expect(output).toMatchObject({ summary: 'Short.', model: 'sonar' });
  });
});
