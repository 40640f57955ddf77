import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { togetherAi } from '../../adapters/apps/together-ai/index.js';
import { answer, type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { describeAppContract } from './app-contract.js';

describeAppContract(togetherAi);

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({
    modelList: 'array',
    models: ['meta-llama/Llama-3.3-70B-Instruct-Turbo', 'Qwen/Qwen3'],
  });
});
afterAll(() => fake.close());

const call = (parameters: Record<string, unknown> = {}) => ({ baseUrl: `${fake.url}/v1`, auth: fake.auth, parameters });

describe('together-ai', () => {
  it('verifies the key and lists models from Together’s bare array, by display name', async () => {
    expect(await verifyAppAuth(togetherAi, fake.auth, { baseUrl: `${fake.url}/v1` })).toMatchObject({ ok: true });
    const models = await loadAppDynamicData(togetherAi, 'listModels', call());
    expect(models).toEqual([
      { value: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', name: 'META-LLAMA/LLAMA-3.3-70B-INSTRUCT-TURBO' },
      { value: 'Qwen/Qwen3', name: 'QWEN/QWEN3' },
    ]);
  });

  it('createCompletion and createChatCompletion send top-k and stop sequences', async () => {
    fake.script(answer.text('a'), answer.text('b'));
    await runAppAction(
      togetherAi,
      'createCompletion',
      call({ model: 'Qwen/Qwen3', prompt: 'Once upon', topK: 40, stopSequences: '["\\n"]' }),
    );
    expect(fake.chatRequests.at(-1)?.body).toMatchObject({
      messages: [{ role: 'user', content: 'Once upon' }],
      top_k: 40,
      stop: ['\n'],
    });
    const output = await runAppAction(
      togetherAi,
      'createChatCompletion',
      call({ model: 'Qwen/Qwen3', messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(output).toMatchObject({ text: 'b', model: 'Qwen/Qwen3' });
  });
});
