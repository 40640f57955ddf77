import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  runAppAction,
  runAppActionOutcome,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { googleGemini } from '../../adapters/apps/google-gemini/index.js';
import { GEMINI_DEFAULT_MODEL } from '../../adapters/apps/google-gemini/model.js';
import { describeAppContract } from './app-contract.js';
import { type FakeGemini, startFakeGemini } from './support/gemini-fake.js';
import { chatOutcome, chatWith } from './support/model-harness.js';

describeAppContract(googleGemini);

let vendor: FakeGemini;
beforeAll(async () => {
  vendor = await startFakeGemini();
});
afterAll(() => vendor.close());
beforeEach(() => {
  vendor.requests.length = 0;
});

const auth = () => ({ auth: { apiKey: vendor.apiKey }, baseUrl: vendor.url });
const weather = {
  name: 'get_weather',
  description: 'The weather in a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('the Gemini LanguageModel over @google/genai', () => {
  it('sends system instructions, settings and tools as Gemini takes them, and reads text and usage', async () => {
    vendor.script([{ text: 'Sunny.', usage: { input: 30, output: 3 } }]);
    const answer = await chatWith(
      googleGemini,
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather?' },
        ],
        tools: [weather],
        temperature: 0.3,
        maxTokens: 100,
        topK: 5,
      },
      auth(),
    );
    expect(answer).toEqual({
      text: 'Sunny.',
      toolCalls: [],
      usage: { inputTokens: 30, outputTokens: 3 },
      model: GEMINI_DEFAULT_MODEL,
      finishReason: 'stop',
    });
    const [request] = vendor.requests;
    expect(request?.path).toBe(`/v1beta/models/${GEMINI_DEFAULT_MODEL}:generateContent`);
    expect(request?.headers['x-goog-api-key']).toBe(vendor.apiKey);
    expect(request?.query).toEqual({});
    expect(request?.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'Weather?' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0.3, maxOutputTokens: 100, topK: 5 },
      tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weather.inputSchema }] }],
    });
  });

  it('reads function calls (with ids made when Gemini gives none) and sends calls and answers back', async () => {
    vendor.script([{ toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] }, { text: 'Cold in Oslo.' }]);
    const first = { messages: [{ role: 'user' as const, content: 'Oslo?' }], tools: [weather] };
    const asked = await chatWith(googleGemini, first, auth());
    expect(asked.finishReason).toBe('tool_calls');
    expect(asked.toolCalls).toEqual([{ id: expect.any(String), name: 'get_weather', arguments: { city: 'Oslo' } }]);
    const id = asked.toolCalls[0]?.id ?? '';
    const answer = await chatWith(
      googleGemini,
      {
        ...first,
        messages: [
          ...first.messages,
          { role: 'assistant', content: '', toolCalls: asked.toolCalls },
          { role: 'tool', toolCallId: id, name: 'get_weather', content: '{"celsius": -3}' },
        ],
      },
      auth(),
    );
    expect(answer.text).toBe('Cold in Oslo.');
    expect(vendor.bodies()[1].contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: expect.any(String) },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: { celsius: -3 } } } }] },
    ]);
  });

  it('asks for JSON of a schema with responseJsonSchema', async () => {
    vendor.script([{ text: '{"a":1}' }]);
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    await chatWith(googleGemini, { messages: [{ role: 'user', content: 'a' }], json: { schema } }, auth());
    expect(vendor.bodies()[0].generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
  });

  it('makes a 429 retryable after the RetryInfo delay, once, and a wrong key final', async () => {
    vendor.script([{ error: 429, retryAfter: 28 }]);
    const limited = await chatOutcome(googleGemini, { messages: [{ role: 'user', content: 'Hi' }] }, auth());
    expect(limited).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 28_000 } });
    expect(vendor.requests).toHaveLength(1);
    const wrong = await chatOutcome(
      googleGemini,
      { messages: [{ role: 'user', content: 'Hi' }] },
      { auth: { apiKey: 'AIza-wrong-1234' }, baseUrl: vendor.url },
    );
    expect(wrong).toMatchObject({ kind: 'failure', failure: { retryable: false } });
    if (wrong.kind === 'failure') expect(wrong.failure.message).toContain('API key not valid');
    expect(JSON.stringify(wrong)).not.toContain('AIza-wrong-1234');
  });
});

describe('google-gemini', () => {
  it('verifies a key by listing models, and lists those that generate content', async () => {
    expect(await verifyAppAuth(googleGemini, { apiKey: vendor.apiKey }, { baseUrl: vendor.url })).toMatchObject({
      ok: true,
    });
    expect(await loadAppDynamicData(googleGemini, 'listModels', auth())).toEqual([
      { name: 'Gemini 2.5 Flash', value: 'gemini-2.5-flash' },
      { name: 'Gemini 2.5 Pro', value: 'gemini-2.5-pro' },
    ]);
  });

  it('sendChatPrompt answers the text, summarizeText a summary', async () => {
    vendor.script([{ text: 'Hello!' }, { text: 'A short summary.' }]);
    expect(
      await runAppAction(googleGemini, 'sendChatPrompt', {
        ...auth(),
        parameters: { model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'Hi' }] },
      }),
    ).toMatchObject({ text: 'Hello!', model: 'gemini-2.5-pro' });
    expect(
      await runAppAction(googleGemini, 'summarizeText', { ...auth(), parameters: { text: 'A long text.' } }),
    ).toMatchObject({ summary: 'A short summary.' });
  });

  it('a 503 is worth another attempt', async () => {
    vendor.script([{ error: 503, message: 'The model is overloaded.' }]);
    expect(
      await runAppActionOutcome(googleGemini, 'sendPrompt', {
        ...auth(),
        parameters: { model: 'gemini-2.5-flash', prompt: 'Hi' },
      }),
    ).toMatchObject({ kind: 'failure', failure: { retryable: true, details: { status: 503 } } });
  });
});
