import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  runAppAction,
  runAppActionOutcome,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { ollama } from '../../adapters/apps/ollama/index.js';
import { describeAppContract } from './app-contract.js';
import { chatWith } from './support/model-harness.js';
import { type FakeOllama, startFakeOllama } from './support/ollama-fake.js';

describeAppContract(ollama);

let server: FakeOllama;
let proxied: FakeOllama;
beforeAll(async () => {
  server = await startFakeOllama();
  proxied = await startFakeOllama({ apiKey: 'proxy-key-0001' });
});
afterAll(async () => {
  await server.close();
  await proxied.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

// The connection names the server: no base-URL override is needed to reach the fake.
const auth = () => ({ auth: { serverUrl: server.url } });
const add = {
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
};

describe('the Ollama LanguageModel over the ollama package', () => {
  it('chats at the connection’s server, without streaming, with options, tools and tool results', async () => {
    server.script([
      { toolCalls: [{ name: 'add', input: { a: 2, b: 3 } }], usage: { input: 18, output: 6 } },
      { text: '5' },
    ]);
    const first = {
      model: 'qwen3:8b',
      messages: [{ role: 'user' as const, content: '2+3?' }],
      tools: [add],
      temperature: 0,
      maxTokens: 64,
    };
    const asked = await chatWith(ollama, first, auth());
    expect(asked).toEqual({
      text: '',
      toolCalls: [{ id: expect.stringMatching(/^call_/), name: 'add', arguments: { a: 2, b: 3 } }],
      usage: { inputTokens: 18, outputTokens: 6 },
      model: 'qwen3:8b',
      finishReason: 'tool_calls',
    });
    expect(server.bodies()[0]).toMatchObject({
      model: 'qwen3:8b',
      stream: false,
      options: { temperature: 0, num_predict: 64 },
      tools: [{ type: 'function', function: { name: 'add', parameters: add.inputSchema } }],
    });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    const id = asked.toolCalls[0]?.id ?? '';
    const answer = await chatWith(
      ollama,
      {
        ...first,
        messages: [
          ...first.messages,
          { role: 'assistant', content: '', toolCalls: asked.toolCalls },
          { role: 'tool', toolCallId: id, name: 'add', content: '5' },
        ],
      },
      auth(),
    );
    expect(answer).toMatchObject({ text: '5', finishReason: 'stop' });
    expect(server.bodies()[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'add', arguments: { a: 2, b: 3 } } }] },
      { role: 'tool', content: '5', tool_name: 'add' },
    ]);
  });

  it('asks for JSON with format: "json", or the schema', async () => {
    server.script([{ text: '{}' }, { text: '{}' }]);
    await chatWith(ollama, { model: 'qwen3:8b', messages: [{ role: 'user', content: 'a' }], json: {} }, auth());
    const schema = { type: 'object', properties: { x: { type: 'string' } } };
    await chatWith(ollama, { model: 'qwen3:8b', messages: [{ role: 'user', content: 'a' }], json: { schema } }, auth());
    expect(server.bodies().map((b) => b.format)).toEqual(['json', schema]);
  });

  it('sends the API key as a bearer token, and none without one', async () => {
    proxied.script([{ text: 'ok' }]);
    expect(
      await chatWith(
        ollama,
        { model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }] },
        { auth: { serverUrl: proxied.url, apiKey: 'proxy-key-0001' } },
      ),
    ).toMatchObject({ text: 'ok' });
    const outcome = await runAppActionOutcome(ollama, 'sendPrompt', {
      auth: { serverUrl: proxied.url },
      parameters: { model: 'qwen3:8b', prompt: 'hi' },
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: false, details: { status: 401 } } });
  });
});

describe('ollama', () => {
  it('verifies the connection by listing the server’s models, shown as the server’s host', async () => {
    expect(await verifyAppAuth(ollama, { serverUrl: server.url })).toMatchObject({
      ok: true,
      screenName: new URL(server.url).host,
    });
    expect(await loadAppDynamicData(ollama, 'listModels', auth())).toEqual([
      { name: 'llama3.2:latest', value: 'llama3.2:latest' },
      { name: 'qwen3:8b', value: 'qwen3:8b' },
    ]);
  });

  it('refuses a server in a private network unless the instance allows them', async () => {
    const outcome = await runAppActionOutcome(ollama, 'sendPrompt', {
      ...auth(),
      allowPrivateNetworks: false,
      parameters: { model: 'qwen3:8b', prompt: 'hi' },
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: false } });
    expect(server.requests).toHaveLength(0);
  });

  it('sendChatPrompt answers the text; a model the server lacks fails in Ollama’s words', async () => {
    server.script([{ text: 'Hi there' }]);
    expect(
      await runAppAction(ollama, 'sendChatPrompt', {
        ...auth(),
        parameters: { model: 'llama3.2', messages: [{ role: 'user', content: 'Hi' }], topK: 10 },
      }),
    ).toMatchObject({ text: 'Hi there' });
    expect(server.bodies()[0].options).toEqual({ top_k: 10 });
    const missing = await runAppActionOutcome(ollama, 'sendPrompt', {
      ...auth(),
      parameters: { model: 'mistral:7b', prompt: 'hi' },
    });
    expect(missing).toMatchObject({ kind: 'failure', failure: { retryable: false, details: { status: 404 } } });
    if (missing.kind === 'failure') expect(missing.failure.message).toContain("model 'mistral:7b' not found");
  });
});
