import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { openrouter } from '../../adapters/apps/openrouter/index.js';
import { answer, type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { describeAppContract } from './app-contract.js';

describeAppContract(openrouter);

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4'] });
});
afterAll(() => fake.close());

const base = () => `${fake.url}/api/v1`;

describe('openrouter', () => {
  it('checks the key where OpenRouter describes it (its model list needs none)', async () => {
    expect(await verifyAppAuth(openrouter, fake.auth, { baseUrl: base() })).toMatchObject({ ok: true });
    expect(fake.requests.at(-1)?.path).toBe('/api/v1/key');
    const refused = await verifyAppAuth(openrouter, { ...fake.auth, apiKey: 'sk-or-wrong' }, { baseUrl: base() });
    expect(refused).toMatchObject({ ok: false });
  });

  it('lists the models it routes to', async () => {
    const models = await loadAppDynamicData(openrouter, 'listModels', { baseUrl: base(), auth: fake.auth });
    expect(models.map((m) => m.value)).toEqual(['anthropic/claude-sonnet-4', 'openai/gpt-4o-mini']);
  });

  it('createChatCompletion sends the conversation with its stop sequences, as Automatisch kept them', async () => {
    fake.script(answer.text('4'));
    const output = await runAppAction(openrouter, 'createChatCompletion', {
      baseUrl: base(),
      auth: fake.auth,
      parameters: {
        model: 'anthropic/claude-sonnet-4',
        messages: [
          { role: 'system', content: 'Answer with a number.' },
          { role: 'user', content: '2+2?' },
          { role: 'assistant', content: '4' },
          { role: 'user', content: 'Again?' },
        ],
        stopSequences: [{ stopSequence: 'END' }, { stopSequence: '' }, 'STOP'],
      },
    });
    expect(output).toMatchObject({ text: '4', model: 'anthropic/claude-sonnet-4' });
    const sent = fake.chatRequests.at(-1);
    expect(sent?.path).toBe('/api/v1/chat/completions');
    expect(sent?.body.stop).toEqual(['END', 'STOP']);
    expect(sent?.body.messages).toHaveLength(4);
  });
});
