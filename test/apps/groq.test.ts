import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatWithApp, loadAppDynamicData, runAppAction, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { groq } from '../../adapters/apps/groq/index.js';
import { answer, type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { describeAppContract } from './app-contract.js';

describeAppContract(groq);

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['llama-3.3-70b-versatile', 'openai/gpt-oss-20b'] });
});
afterAll(() => fake.close());

const base = () => `${fake.url}/openai/v1`;

describe('groq', () => {
  it('verifies and lists models under /openai/v1', async () => {
    expect(await verifyAppAuth(groq, fake.auth, { baseUrl: base() })).toMatchObject({ ok: true });
    expect(fake.requests.at(-1)?.path).toBe('/openai/v1/models');
    const models = await loadAppDynamicData(groq, 'listModels', { baseUrl: base(), auth: fake.auth });
    expect(models.map((m) => m.value)).toEqual(['llama-3.3-70b-versatile', 'openai/gpt-oss-20b']);
  });

  it('sendChatPrompt and the model agents ask', async () => {
    fake.script(answer.text('Fast.'), answer.text('Agent answer.'));
    const output = await runAppAction(groq, 'sendChatPrompt', {
      baseUrl: base(),
      auth: fake.auth,
      parameters: { model: 'openai/gpt-oss-20b', messages: [{ role: 'user', content: 'Speed?' }] },
    });
    expect(output).toMatchObject({ text: 'Fast.' });
    const reply = await chatWithApp(
      groq,
      { messages: [{ role: 'user', content: 'hi' }] },
      { baseUrl: base(), auth: fake.auth },
    );
    expect(reply).toMatchObject({ text: 'Agent answer.', model: 'llama-3.3-70b-versatile' });
  });
});
