import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAppAction, runAppActionOutcome, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { deepseek } from '../../adapters/apps/deepseek/index.js';
import { answer, type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { describeAppContract } from './app-contract.js';

describeAppContract(deepseek);

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ models: ['deepseek-chat', 'deepseek-reasoner'] });
});
afterAll(() => fake.close());

const call = (parameters: Record<string, unknown> = {}) => ({ baseUrl: fake.url, auth: fake.auth, parameters });

describe('deepseek', () => {
  it('verifies the key on /models and chats at /chat/completions', async () => {
    expect(await verifyAppAuth(deepseek, fake.auth, { baseUrl: fake.url })).toMatchObject({ ok: true });
    expect(fake.requests.at(-1)?.path).toBe('/models');
    fake.script(answer.text('Hi'));
    expect(
      await runAppAction(deepseek, 'sendPrompt', call({ model: 'deepseek-reasoner', prompt: 'Hello' })),
    ).toMatchObject({
      text: 'Hi',
      model: 'deepseek-reasoner',
    });
    expect(fake.chatRequests.at(-1)?.path).toBe('/chat/completions');
  });

  it('extracts with JSON mode, the schema told in the prompt (which names JSON, as DeepSeek requires)', async () => {
    fake.script(answer.json({ amount: 12 }));
    const output = await runAppAction(
      deepseek,
      'extractStructuredData',
      call({ text: '12 euros', fields: [{ key: 'amount', value: 'number' }] }),
    );
    expect(output).toMatchObject({ data: { amount: 12 }, model: 'deepseek-chat' });
    const sent = fake.chatRequests.at(-1)?.body;
    expect(sent?.response_format).toEqual({ type: 'json_object' });
    expect(String(sent?.messages[0]?.content)).toContain('"amount"');
  });

  it('waits as long as a 503 says before another attempt', async () => {
    fake.script({ kind: 'error', status: 503, message: 'Server busy', headers: { 'retry-after': '30' } });
    const outcome = await runAppActionOutcome(deepseek, 'sendPrompt', call({ model: 'deepseek-chat', prompt: 'x' }));
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 30_000 } });
  });
});
