import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropic } from '../../adapters/apps/anthropic/index.js';
import {
  loadAppDynamicData,
  runAppAction,
  runAppActionOutcome,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { type FakeAnthropic, startFakeAnthropic } from '../support/fake-anthropic.js';
import { describeAppContract } from './app-contract.js';

describeAppContract(anthropic);

let vendor: FakeAnthropic;
beforeAll(async () => {
  vendor = await startFakeAnthropic({
    // More than a page of models, to see the listing follow `after_id`.
    models: Array.from({ length: 1005 }, (_, i) => ({ id: `claude-${i}`, display_name: `Claude ${i}` })),
  });
});
afterAll(() => vendor.close());
beforeEach(() => {
  vendor.requests.length = 0;
});

const call = (parameters: Record<string, unknown>) => ({
  auth: { apiKey: vendor.apiKey },
  baseUrl: vendor.url,
  parameters,
});

describe('anthropic', () => {
  it('verifies a key by listing models, and refuses a wrong one in Anthropic’s words', async () => {
    expect(await verifyAppAuth(anthropic, { apiKey: vendor.apiKey }, { baseUrl: vendor.url })).toMatchObject({
      ok: true,
      screenName: 'Anthropic API key',
    });
    const refused = await verifyAppAuth(anthropic, { apiKey: 'sk-ant-nope-9999' }, { baseUrl: vendor.url });
    expect(refused).toMatchObject({ ok: false });
    expect(JSON.stringify(refused)).toContain('invalid x-api-key');
    expect(JSON.stringify(refused)).not.toContain('sk-ant-nope-9999');
  });

  it('lists every model for the dropdown, page after page', async () => {
    const models = await loadAppDynamicData(anthropic, 'listModels', call({}));
    expect(models).toHaveLength(1005);
    expect(models[0]).toEqual({ name: 'Claude 0', value: 'claude-0' });
    expect(vendor.requests.map((r) => r.query.after_id ?? null)).toEqual([null, 'claude-999']);
  });

  it('sendMessage (Automatisch’s key and arguments) sends the conversation and answers the text', async () => {
    vendor.script([{ text: 'Four.', usage: { input: 12, output: 2 } }]);
    const output = await runAppAction(
      anthropic,
      'sendMessage',
      call({
        model: 'claude-9',
        messages: [{ role: 'user', content: 'Two plus two?' }],
        maxTokens: 20,
        temperature: 0.5,
        stopSequences: [{ stopSequence: 'END' }],
      }),
    );
    expect(output).toMatchObject({ text: 'Four.', model: 'claude-9', finishReason: 'stop' });
    expect(vendor.bodies()[0]).toEqual({
      model: 'claude-9',
      max_tokens: 20,
      temperature: 0.5,
      stop_sequences: ['END'],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Two plus two?' }] }],
    });
  });

  it('extracts structured data with a JSON answer of the schema', async () => {
    vendor.script([{ text: '{"total": 42.5, "currency": "EUR"}' }]);
    const output = await runAppAction(
      anthropic,
      'extractStructuredData',
      call({
        model: 'claude-9',
        text: 'Invoice total: 42.50 EUR',
        fields: [
          { key: 'total', value: 'number' },
          { key: 'currency', value: 'text' },
        ],
      }),
    );
    expect(output).toMatchObject({ data: { total: 42.5, currency: 'EUR' } });
    expect(vendor.bodies()[0].output_config.format.type).toBe('json_schema');
  });

  it('makes a 429 a failure the engine retries after Retry-After', async () => {
    vendor.script([{ error: 429, retryAfter: 3 }]);
    const outcome = await runAppActionOutcome(
      anthropic,
      'sendMessage',
      call({ model: 'claude-9', messages: [{ role: 'user', content: 'Hi' }], maxTokens: 5 }),
    );
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 3000 } });
  });
});
