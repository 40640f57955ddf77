import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropic } from '../../adapters/apps/anthropic/index.js';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, ANTHROPIC_DEFAULT_MODEL } from '../../adapters/apps/anthropic/model.js';
import type { ChatRequest } from '../../ports/language-model.js';
import { type FakeAnthropic, startFakeAnthropic } from '../support/fake-anthropic.js';
import { chatOutcome, chatWith } from './support/model-harness.js';

let vendor: FakeAnthropic;
beforeAll(async () => {
  vendor = await startFakeAnthropic();
});
afterAll(() => vendor.close());

const call = () => ({ auth: { apiKey: vendor.apiKey }, baseUrl: vendor.url });
const lookup = {
  name: 'lookup_order',
  description: 'Finds an order.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
};

describe('the Anthropic LanguageModel over @anthropic-ai/sdk', () => {
  beforeEach(() => {
    vendor.requests.length = 0;
  });

  it('sends the system messages apart, the key and API version as headers, and reads the answer', async () => {
    vendor.script([{ text: 'Bonjour.', usage: { input: 21, output: 4 } }]);
    const answer = await chatWith(
      anthropic,
      {
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello' },
        ],
      },
      call(),
    );
    expect(answer).toEqual({
      text: 'Bonjour.',
      toolCalls: [],
      usage: { inputTokens: 21, outputTokens: 4 },
      model: ANTHROPIC_DEFAULT_MODEL,
      finishReason: 'stop',
    });
    const [request] = vendor.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${vendor.apiKey}`);
    expect(request?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request?.body).toEqual({
      model: ANTHROPIC_DEFAULT_MODEL,
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      system: 'Answer in French.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    });
  });

  it('offers tools, reads tool_use blocks as calls, and sends calls and results back as the API wants them', async () => {
    vendor.script([
      {
        text: 'Let me look.',
        toolCalls: [
          { id: 'toolu_a', name: 'lookup_order', input: { id: 'A1' } },
          { id: 'toolu_b', name: 'lookup_order', input: { id: 'B2' } },
        ],
      },
      { text: 'Both shipped.' },
    ]);
    const first: ChatRequest = {
      model: 'claude-haiku-4-5',
      messages: [{ role: 'user', content: 'Orders A1, B2?' }],
      tools: [lookup],
    };
    const asked = await chatWith(anthropic, first, call());
    expect(asked.finishReason).toBe('tool_calls');
    expect(asked.text).toBe('Let me look.');
    expect(asked.toolCalls).toEqual([
      { id: 'toolu_a', name: 'lookup_order', arguments: { id: 'A1' } },
      { id: 'toolu_b', name: 'lookup_order', arguments: { id: 'B2' } },
    ]);
    expect(vendor.bodies()[0].tools).toEqual([
      { name: 'lookup_order', description: 'Finds an order.', input_schema: lookup.inputSchema },
    ]);

    const answer = await chatWith(
      anthropic,
      {
        ...first,
        messages: [
          ...first.messages,
          { role: 'assistant', content: asked.text, toolCalls: asked.toolCalls },
          { role: 'tool', toolCallId: 'toolu_a', name: 'lookup_order', content: '{"status":"shipped"}' },
          { role: 'tool', toolCallId: 'toolu_b', name: 'lookup_order', content: '{"status":"shipped"}' },
        ],
      },
      call(),
    );
    expect(answer.text).toBe('Both shipped.');
    // The fake refuses what Anthropic refuses: the results are one user turn right after the calls.
    expect(vendor.bodies()[1].messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_a', name: 'lookup_order', input: { id: 'A1' } },
          { type: 'tool_use', id: 'toolu_b', name: 'lookup_order', input: { id: 'B2' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: '{"status":"shipped"}' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: '{"status":"shipped"}' },
        ],
      },
    ]);
  });

  it('passes temperature and max tokens, asks for a schema with structured outputs and for any JSON in the system prompt', async () => {
    vendor.script([{ text: '{"name":"Ann"}', finish: 'length' }, { text: '[1]' }]);
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    const answer = await chatWith(
      anthropic,
      { messages: [{ role: 'user', content: 'Ann' }], temperature: 0.2, maxTokens: 50, json: { schema } },
      call(),
    );
    expect(answer.finishReason).toBe('length');
    expect(vendor.bodies()[0]).toMatchObject({
      temperature: 0.2,
      max_tokens: 50,
      output_config: { format: { type: 'json_schema', schema } },
    });
    await chatWith(anthropic, { messages: [{ role: 'user', content: 'A list' }], json: {} }, call());
    expect(vendor.bodies()[1].system).toMatch(/JSON/);
    expect(vendor.bodies()[1].output_config).toBeUndefined();
  });

  it('makes a 429 a retryable failure with the Retry-After delay, once: the SDK does not retry by itself', async () => {
    vendor.script([{ error: 429, retryAfter: 7 }]);
    const outcome = await chatOutcome(anthropic, { messages: [{ role: 'user', content: 'Hi' }] }, call());
    expect(outcome).toMatchObject({
      kind: 'failure',
      failure: { retryable: true, retryAfterMs: 7000, details: { status: 429 } },
    });
    expect(vendor.requests).toHaveLength(1);
  });

  it('makes an overload (529) retryable and a refused request (400) final, in Anthropic’s words', async () => {
    vendor.script([{ error: 529 }]);
    expect(await chatOutcome(anthropic, { messages: [{ role: 'user', content: 'Hi' }] }, call())).toMatchObject({
      kind: 'failure',
      failure: { retryable: true, details: { status: 529 } },
    });
    const stray = await chatOutcome(
      anthropic,
      {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_a', name: 'lookup_order', arguments: {} }] },
          { role: 'tool', toolCallId: 'toolu_x', name: 'lookup_order', content: '1' },
        ],
        tools: [lookup],
      },
      call(),
    );
    expect(stray).toMatchObject({ kind: 'failure', failure: { retryable: false, details: { status: 400 } } });
    if (stray.kind === 'failure')
      expect(stray.failure.message).toMatch(/`tool_use` ids were found without `tool_result`/);
  });

  it('fails a wrong key at once, saying so, without repeating it', async () => {
    const outcome = await chatOutcome(
      anthropic,
      { messages: [{ role: 'user', content: 'Hi' }] },
      { auth: { apiKey: 'sk-ant-wrong-key-123' }, baseUrl: vendor.url },
    );
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: false, details: { status: 401 } } });
    if (outcome.kind !== 'failure') return;
    expect(outcome.failure.message).toContain('invalid x-api-key');
    expect(JSON.stringify(outcome)).not.toContain('sk-ant-wrong-key-123');
  });

  it('goes through the network guard, and a server that is away is worth another attempt', async () => {
    const blocked = await chatOutcome(
      anthropic,
      { messages: [{ role: 'user', content: 'Hi' }] },
      { ...call(), allowPrivateNetworks: false },
    );
    expect(blocked).toMatchObject({ kind: 'failure', failure: { retryable: false } });
    if (blocked.kind === 'failure') expect(blocked.failure.message).toMatch(/not allowed|blocked|private/i);
    expect(vendor.requests).toHaveLength(0);

    const away = await chatOutcome(
      anthropic,
      { messages: [{ role: 'user', content: 'Hi' }] },
      { auth: { apiKey: vendor.apiKey }, baseUrl: 'http://127.0.0.1:9' },
    );
    expect(away).toMatchObject({ kind: 'failure', failure: { retryable: true, details: { kind: 'network' } } });
  });
});

describe('the fake Anthropic API', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${vendor.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': vendor.apiKey,
        'anthropic-version': '2023-06-01',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const errorOf = async (response: Response) =>
    ((await response.json()) as { error: { message: string } }).error.message;

  it('refuses what the real API refuses', async () => {
    const base = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    expect(await errorOf(await post({ ...base, max_tokens: undefined }))).toBe('max_tokens: Field required');
    expect(await errorOf(await post({ ...base, anthropic: 1 }, { 'anthropic-version': '' }))).toMatch(
      /anthropic-version/,
    );
    expect(
      await errorOf(
        await post({
          ...base,
          messages: [
            { role: 'user', content: 'a' },
            { role: 'user', content: 'b' },
          ],
        }),
      ),
    ).toMatch(/roles must alternate/);
    expect(
      await errorOf(
        await post({
          ...base,
          messages: [
            { role: 'user', content: 'a' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] },
            { role: 'user', content: 'no result' },
          ],
        }),
      ),
    ).toMatch(/without `tool_result`/);
    expect((await post(base, { 'x-api-key': 'nope' })).status).toBe(401);
  });

  it('lists models by pages', async () => {
    const page = await fetch(`${vendor.url}/v1/models?limit=2`, {
      headers: { 'x-api-key': vendor.apiKey, 'anthropic-version': '2023-06-01' },
    });
    expect(await page.json()).toMatchObject({
      has_more: true,
      first_id: 'claude-sonnet-4-6',
      last_id: 'claude-haiku-4-5',
    });
  });
});
