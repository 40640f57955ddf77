import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chatWithApp,
  loadAppDynamicData,
  runAppAction,
  runAppActionOutcome,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { openai } from '../../adapters/apps/openai/index.js';
import { HttpError, InvalidParametersError } from '../../adapters/apps/sdk/index.js';
import { answer, type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai.js';
import { describeAppContract } from './app-contract.js';

describeAppContract(openai);

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());
beforeEach(() => {
  expect(fake.pending).toBe(0);
});

const call = (parameters: Record<string, unknown> = {}) => ({
  baseUrl: `${fake.url}/v1`,
  auth: fake.auth,
  parameters,
});
const lastChat = () => fake.chatRequests.at(-1)?.body;

describe('openai: connection and models', () => {
  it('verifies a key by listing the models, and shows the screen name given', async () => {
    expect(await verifyAppAuth(openai, fake.auth, { baseUrl: `${fake.url}/v1` })).toMatchObject({
      ok: true,
      screenName: 'Fake OpenAI',
    });
    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe('/v1/models');
    expect(sent?.headers.authorization).toBe(`Bearer ${fake.auth.apiKey}`);
  });

  it('refuses a wrong key with the vendor’s words, never the key', async () => {
    const check = await verifyAppAuth(
      openai,
      { screenName: 'x', apiKey: 'sk-wrong-key-123' },
      { baseUrl: `${fake.url}/v1` },
    );
    expect(check).toMatchObject({ ok: false });
    const reason = (check as { reason: string }).reason;
    expect(reason).toContain('answered 401: Incorrect API key provided');
    expect(reason).toContain(`GET ${fake.url}/v1/models`);
    expect(reason).not.toContain('sk-wrong-key-123');
  });

  it('lists the models for the model dropdown', async () => {
    const models = await loadAppDynamicData(openai, 'listModels', call());
    expect(models.map((m) => m.value)).toEqual(['gpt-4o', 'gpt-4o-mini', 'o3-mini']);
  });
});

describe('openai: chat actions', () => {
  it('sendPrompt sends the prompt as the user’s message and records the text, model and usage', async () => {
    fake.script(answer.text('Paris.', { usage: { prompt_tokens: 12, completion_tokens: 3 } }));
    const output = await runAppAction(
      openai,
      'sendPrompt',
      call({ model: 'gpt-4o', prompt: 'Capital of France?', temperature: '0.2', maxTokens: '50', stopSequence: 'END' }),
    );
    expect(output).toEqual({
      text: 'Paris.',
      model: 'gpt-4o',
      usage: { inputTokens: 12, outputTokens: 3 },
      finishReason: 'stop',
    });
    expect(lastChat()).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Capital of France?' }],
      temperature: 0.2,
      max_tokens: 50,
      stop: ['END'],
    });
  });

  it('sendChatPrompt sends the conversation and Automatisch’s sampling settings', async () => {
    fake.script(answer.text('Bonjour', { finishReason: 'length' }));
    const output = await runAppAction(
      openai,
      'sendChatPrompt',
      call({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Translate to French.' },
          { role: 'user', content: 'Hello' },
        ],
        topP: 0.5,
        frequencyPenalty: '0.1',
        presencePenalty: -0.2,
      }),
    );
    expect(output).toMatchObject({ text: 'Bonjour', finishReason: 'length' });
    expect(lastChat()).toMatchObject({
      messages: [
        { role: 'system', content: 'Translate to French.' },
        { role: 'user', content: 'Hello' },
      ],
      top_p: 0.5,
      frequency_penalty: 0.1,
      presence_penalty: -0.2,
    });
  });

  it('refuses messages that are not a list of role and content, by field', async () => {
    await expect(
      runAppAction(openai, 'sendChatPrompt', call({ model: 'gpt-4o', messages: [{ role: 'robot', content: 'x' }] })),
    ).rejects.toBeInstanceOf(InvalidParametersError);
    await expect(
      runAppAction(openai, 'sendPrompt', call({ model: 'gpt-4o', prompt: 'x', temperature: 3 })),
    ).rejects.toMatchObject({ fields: { temperature: [expect.any(String)] } });
  });

  it('turns a 429 into a retryable failure after Retry-After, and a 400 into a final one', async () => {
    fake.script(answer.rateLimited(7));
    const limited = await runAppActionOutcome(openai, 'sendPrompt', call({ model: 'gpt-4o', prompt: 'hi' }));
    expect(limited).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 7000 } });
    expect(limited.kind === 'failure' && limited.failure.message).toContain('answered 429: Rate limit reached');

    const unknown = await runAppActionOutcome(openai, 'sendPrompt', call({ model: 'gpt-9', prompt: 'hi' }));
    expect(unknown).toMatchObject({ kind: 'failure', failure: { retryable: false, details: { status: 404 } } });
    expect(unknown.kind === 'failure' && unknown.failure.message).toContain('The model `gpt-9` does not exist');
  });

  it('answers a failure without the key when the key is refused mid-run', async () => {
    const outcome = await runAppActionOutcome(openai, 'sendPrompt', {
      ...call({ model: 'gpt-4o', prompt: 'hi' }),
      auth: { screenName: 'x', apiKey: 'sk-revoked-0000' },
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: false, details: { status: 401 } } });
    expect(JSON.stringify(outcome)).not.toContain('sk-revoked-0000');
  });

  it('checkModeration answers the moderation model’s verdict', async () => {
    const output = await runAppAction(openai, 'checkModeration', call({ input: 'I will attack the castle' }));
    expect(output).toMatchObject({ flagged: true, categories: { violence: true }, model: 'omni-moderation-latest' });
  });
});

describe('openai: extractStructuredData', () => {
  const fields = [
    { key: 'total', value: 'number: the invoice total' },
    { key: 'customer', value: 'text' },
    { key: 'paid', value: 'boolean' },
    { key: 'items', value: 'list: the items bought' },
  ];

  it('asks for JSON of the fields’ schema and answers the data, checked', async () => {
    fake.script(answer.json({ total: 42.5, customer: 'Ann', paid: null, items: ['tea'] }));
    const output = await runAppAction(
      openai,
      'extractStructuredData',
      call({ text: 'Ann bought tea for 42.50', fields }),
    );
    expect(output).toMatchObject({
      data: { total: 42.5, customer: 'Ann', paid: null, items: ['tea'] },
      model: 'gpt-4o-mini',
      attempts: 1,
    });
    const sent = lastChat();
    expect(sent?.model).toBe('gpt-4o-mini');
    expect(sent?.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'answer',
        strict: false,
        schema: {
          type: 'object',
          properties: {
            total: { type: ['number', 'null'], description: 'the invoice total' },
            customer: { type: ['string', 'null'] },
            paid: { type: ['boolean', 'null'] },
            items: { type: ['array', 'null'], items: { type: 'string' }, description: 'the items bought' },
          },
          required: ['total', 'customer', 'paid', 'items'],
          additionalProperties: false,
        },
      },
    });
    expect(sent?.messages.at(-1)).toEqual({ role: 'user', content: 'Ann bought tea for 42.50' });
  });

  it('tells the model once what did not fit, and takes the second answer, counting both attempts’ tokens', async () => {
    fake.script(
      answer.text('Sure! The total is 42.', { usage: { prompt_tokens: 10, completion_tokens: 5 } }),
      answer.json({ total: 42 }, { usage: { prompt_tokens: 30, completion_tokens: 4 } }),
    );
    const schema = { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] };
    const output = await runAppAction(openai, 'extractStructuredData', call({ text: 'total 42', schema }));
    expect(output).toMatchObject({ data: { total: 42 }, attempts: 2, usage: { inputTokens: 40, outputTokens: 9 } });
    const retry = lastChat()?.messages ?? [];
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: 'Sure! The total is 42.' });
    expect(retry.at(-1)?.content).toContain('the answer is not JSON');
  });

  it('fails for good, naming what did not fit, when the second answer does not fit either', async () => {
    fake.script(answer.json({ total: 'many' }), answer.json({ total: 4.5 }));
    const schema = { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] };
    const outcome = await runAppActionOutcome(openai, 'extractStructuredData', call({ text: 'x', schema }));
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: false } });
    const message = outcome.kind === 'failure' ? outcome.failure.message : '';
    expect(message).toMatch(/did not fit the schema after 2 attempts: total: /);
    expect(fake.chatRequests.at(-1)?.body.messages.at(-1)?.content).toContain('total:');
  });

  it('wants either fields or a JSON Schema of an object', async () => {
    await expect(runAppAction(openai, 'extractStructuredData', call({ text: 'x' }))).rejects.toMatchObject({
      fields: { fields: ['give either fields or a JSON Schema, not both.'] },
    });
    await expect(
      runAppAction(openai, 'extractStructuredData', call({ text: 'x', schema: { type: 'array' } })),
    ).rejects.toMatchObject({ fields: { schema: ['must describe an object ("type": "object").'] } });
  });
});

describe('openai: classifyText and summarizeText', () => {
  const labels = [
    { key: 'billing', value: 'money, invoices, refunds' },
    { key: 'bug', value: 'something is broken' },
    { key: 'other', value: '' },
  ];

  it('answers exactly one of the labels, with the reason', async () => {
    fake.script(answer.json({ label: 'bug', reason: 'The app crashes.' }));
    const output = await runAppAction(openai, 'classifyText', call({ text: 'It crashes on start', labels }));
    expect(output).toMatchObject({ label: 'bug', reason: 'The app crashes.', model: 'gpt-4o-mini' });
    const schema = lastChat()?.response_format?.json_schema?.schema as { properties: { label: { enum: string[] } } };
    expect(schema.properties.label.enum).toEqual(['billing', 'bug', 'other']);
    expect(lastChat()?.messages[0]?.content).toContain('- billing: money, invoices, refunds');
  });

  it('does not make up a label: one outside the list is sent back, then fails the step', async () => {
    fake.script(answer.json({ label: 'urgent', reason: '' }), answer.json({ label: 'urgent', reason: '' }));
    const outcome = await runAppActionOutcome(openai, 'classifyText', call({ text: 'x', labels }));
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: false } });
    expect(outcome.kind === 'failure' && outcome.failure.message).toContain('label:');
  });

  it('needs two labels at least', async () => {
    await expect(
      runAppAction(openai, 'classifyText', call({ text: 'x', labels: [{ key: 'only', value: '' }] })),
    ).rejects.toMatchObject({ fields: { labels: ['needs at least two labels.'] } });
  });

  it('summarizes as long and in the style asked', async () => {
    fake.script(answer.text('- one\n- two'));
    const output = await runAppAction(
      openai,
      'summarizeText',
      call({ text: 'A long text.', length: 'short', style: 'bulletPoints', model: 'gpt-4o' }),
    );
    expect(output).toMatchObject({ summary: '- one\n- two', model: 'gpt-4o', finishReason: 'stop' });
    expect(lastChat()?.messages[0]?.content).toMatch(/one or two sentences, as a list of bullet points/);
  });
});

describe('openai: the language model agents use', () => {
  const tools = [
    {
      name: 'lookup_order',
      description: 'Finds an order.',
      inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    },
  ];

  it('offers tools, answers the calls with parsed arguments, and takes their results back', async () => {
    fake.script(answer.toolCalls([{ id: 'call_1', name: 'lookup_order', arguments: { id: 7 } }]));
    const first = await chatWithApp(
      openai,
      { messages: [{ role: 'user', content: 'Where is order 7?' }], tools },
      { baseUrl: `${fake.url}/v1`, auth: fake.auth },
    );
    expect(first).toMatchObject({
      text: '',
      finishReason: 'tool_calls',
      model: 'gpt-4o-mini',
      toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: { id: 7 } }],
    });
    expect(lastChat()?.tools).toEqual([
      {
        type: 'function',
        function: { name: 'lookup_order', description: 'Finds an order.', parameters: tools[0]?.inputSchema },
      },
    ]);

    fake.script(answer.text('It ships tomorrow.'));
    const second = await chatWithApp(
      openai,
      {
        model: 'gpt-4o',
        tools,
        messages: [
          { role: 'user', content: 'Where is order 7?' },
          { role: 'assistant', content: '', toolCalls: first.toolCalls },
          { role: 'tool', toolCallId: 'call_1', name: 'lookup_order', content: '{"status":"packed"}' },
        ],
      },
      { baseUrl: `${fake.url}/v1`, auth: fake.auth },
    );
    expect(second.text).toBe('It ships tomorrow.');
    expect(lastChat()?.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"id":7}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status":"packed"}' },
    ]);
  });

  it('throws the kit’s HttpError for a malformed conversation, as the API refuses it', async () => {
    const refused = chatWithApp(
      openai,
      { messages: [{ role: 'tool', toolCallId: 'nope', name: 'x', content: '1' }] },
      { baseUrl: `${fake.url}/v1`, auth: fake.auth },
    );
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    await expect(refused).rejects.toMatchObject({ status: 400, retryable: false });
  });

  it('asks for a JSON object in JSON mode and reports a retryable 429', async () => {
    fake.script(answer.rateLimited(2));
    await expect(
      chatWithApp(
        openai,
        { messages: [{ role: 'user', content: 'Answer in JSON.' }], json: {} },
        { baseUrl: `${fake.url}/v1`, auth: fake.auth },
      ),
    ).rejects.toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 2 });
    expect(fake.requests.at(-1)?.body).toMatchObject({ response_format: { type: 'json_object' } });
  });

  it('reports a server that does not answer as a retryable network failure', async () => {
    const closed = await startFakeOpenAi();
    await closed.close();
    await expect(
      chatWithApp(
        openai,
        { messages: [{ role: 'user', content: 'hi' }] },
        { baseUrl: `${closed.url}/v1`, auth: fake.auth },
      ),
    ).rejects.toMatchObject({ name: 'HttpRequestError', kind: 'network', retryable: true });
  });

  it('refuses a model server on a private address unless the instance allows them', async () => {
    await expect(
      chatWithApp(
        openai,
        { messages: [{ role: 'user', content: 'hi' }] },
        { baseUrl: `${fake.url}/v1`, auth: fake.auth, allowPrivateNetworks: false },
      ),
    ).rejects.toMatchObject({ name: 'BlockedAddressError' });
  });
});
