import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  runAppAction,
  runAppActionOutcome,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { mistralAi } from '../../adapters/apps/mistral-ai/index.js';
import { describeAppContract } from './app-contract.js';
import { type FakeMistral, startFakeMistral } from './support/mistral-fake.js';
import { chatWith } from './support/model-harness.js';

describeAppContract(mistralAi);

let vendor: FakeMistral;
beforeAll(async () => {
  vendor = await startFakeMistral();
});
afterAll(() => vendor.close());
beforeEach(() => {
  vendor.requests.length = 0;
});

const auth = () => ({ auth: { apiKey: vendor.apiKey }, baseUrl: vendor.url });
const search = {
  name: 'search_docs',
  description: 'Searches the docs.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
};

describe('the Mistral LanguageModel over @mistralai/mistralai', () => {
  it('sends the conversation, tools and calls as Mistral takes them, and reads calls, text and usage', async () => {
    vendor.script([
      {
        toolCalls: [{ id: 'abcDEF123', name: 'search_docs', input: { q: 'limits' } }],
        usage: { input: 40, output: 9 },
      },
      { text: 'The limit is 10.' },
    ]);
    const first = {
      model: 'mistral-small-latest',
      messages: [
        { role: 'system' as const, content: 'Use the docs.' },
        { role: 'user' as const, content: 'Limits?' },
      ],
      tools: [search],
      temperature: 0.1,
    };
    const asked = await chatWith(mistralAi, first, auth());
    expect(asked).toEqual({
      text: '',
      toolCalls: [{ id: 'abcDEF123', name: 'search_docs', arguments: { q: 'limits' } }],
      usage: { inputTokens: 40, outputTokens: 9 },
      model: 'mistral-small-latest',
      finishReason: 'tool_calls',
    });
    expect(vendor.requests[0]?.headers.authorization).toBe(`Bearer ${vendor.apiKey}`);
    expect(vendor.bodies()[0]).toMatchObject({
      model: 'mistral-small-latest',
      temperature: 0.1,
      tools: [{ type: 'function', function: { name: 'search_docs', parameters: search.inputSchema } }],
    });
    const answer = await chatWith(
      mistralAi,
      {
        ...first,
        messages: [
          ...first.messages,
          { role: 'assistant', content: '', toolCalls: asked.toolCalls },
          { role: 'tool', toolCallId: 'abcDEF123', name: 'search_docs', content: 'Limit: 10' },
        ],
      },
      auth(),
    );
    expect(answer.text).toBe('The limit is 10.');
    expect(vendor.bodies()[1].messages.slice(2)).toMatchObject([
      {
        role: 'assistant',
        tool_calls: [
          { id: 'abcDEF123', type: 'function', function: { name: 'search_docs', arguments: '{"q":"limits"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'abcDEF123', name: 'search_docs', content: 'Limit: 10' },
    ]);
  });

  it('asks for JSON with response_format, of a schema when there is one', async () => {
    vendor.script([{ text: '{}' }, { text: '{}' }]);
    await chatWith(mistralAi, { messages: [{ role: 'user', content: 'a' }], json: {} }, auth());
    await chatWith(
      mistralAi,
      { messages: [{ role: 'user', content: 'a' }], json: { schema: { type: 'object' } } },
      auth(),
    );
    expect(vendor.bodies().map((b) => b.response_format.type)).toEqual(['json_object', 'json_schema']);
    expect(vendor.bodies()[1].response_format.json_schema).toMatchObject({ schema: { type: 'object' } });
  });
});

describe('mistral-ai', () => {
  it('verifies a key by listing models, lists the chat models, and refuses a wrong key', async () => {
    expect(await verifyAppAuth(mistralAi, { apiKey: vendor.apiKey }, { baseUrl: vendor.url })).toMatchObject({
      ok: true,
    });
    expect(await verifyAppAuth(mistralAi, { apiKey: 'wrong-key-0000' }, { baseUrl: vendor.url })).toMatchObject({
      ok: false,
    });
    expect(await loadAppDynamicData(mistralAi, 'listModels', auth())).toEqual([
      { name: 'mistral-large-latest', value: 'mistral-large-latest' },
      { name: 'mistral-small-latest', value: 'mistral-small-latest' },
    ]);
  });

  it('createChatCompletion (Automatisch’s key and arguments) answers the text', async () => {
    vendor.script([{ text: 'Bonjour' }]);
    const output = await runAppAction(mistralAi, 'createChatCompletion', {
      ...auth(),
      parameters: {
        model: 'mistral-large-latest',
        messages: [{ role: 'user', content: 'Hello in French' }],
        maxTokens: 10,
        topP: 0.9,
        stopSequences: ['\n'],
      },
    });
    expect(output).toMatchObject({ text: 'Bonjour', finishReason: 'stop' });
    expect(vendor.bodies()[0]).toMatchObject({ max_tokens: 10, top_p: 0.9, stop: ['\n'] });
  });

  it('makes a 429 retryable after its Retry-After, with one request: the SDK does not retry', async () => {
    vendor.script([{ error: 429, retryAfter: 4 }]);
    const outcome = await runAppActionOutcome(mistralAi, 'createChatCompletion', {
      ...auth(),
      parameters: { model: 'mistral-large-latest', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 4000 } });
    expect(vendor.requests).toHaveLength(1);
  });
});
