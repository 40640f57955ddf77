import { afterAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import type { RunControl } from '../../ports/step-runner.js';
import { FakeRun } from '../fakes/run-control.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
const runner = createStepRunner(catalog, builtInApps);
afterAll(() => catalog.close());

const AGENT = '6f1f0000-0000-4000-8000-0000000000a1';
const store = { get: async () => undefined, set: async () => {} };

const runAgent = (parameters: Record<string, unknown>, run: RunControl | null) =>
  runner.runAction({ appKey: 'agents', key: 'runAgent', parameters, connection: null, store, execution: null, run });

describe('agents: runAgent', () => {
  it('asks the run for the agent, and outputs what it answered', async () => {
    const run = new FakeRun();
    const output = {
      output: 'Booked.',
      agentExecutionId: 'ae-1',
      iterations: 2,
      usage: { inputTokens: 30, outputTokens: 8 },
      toolCalls: 1,
    };
    run.agentOutcomes.push({ kind: 'success', output });
    expect(await runAgent({ agentId: AGENT, prompt: 'Book it', conversationKey: 'chat-7' }, run.control())).toEqual({
      kind: 'success',
      output,
    });
    expect(run.agentRequests).toEqual([{ agentId: AGENT, prompt: 'Book it', conversationKey: 'chat-7' }]);
  });

  it('suspends while the agent waits, and fails as it failed, retried only when it says so', async () => {
    const run = new FakeRun();
    const until = new Date('2026-05-01T11:00:00.000Z');
    run.agentOutcomes.push(
      { kind: 'suspend', until },
      { kind: 'failure', failure: { message: 'The agent reached its limit of 3 model calls.', retryable: false } },
      { kind: 'failure', failure: { message: 'The model failed: Rate limited.', retryable: true, retryAfterMs: 1500 } },
    );
    expect(await runAgent({ agentId: AGENT, prompt: 'x' }, run.control())).toEqual({ kind: 'suspend', until });
    expect(await runAgent({ agentId: AGENT, prompt: 'x' }, run.control())).toMatchObject({
      kind: 'failure',
      failure: { message: 'The agent reached its limit of 3 model calls.', retryable: false },
    });
    expect(await runAgent({ agentId: AGENT, prompt: 'x' }, run.control())).toMatchObject({
      kind: 'failure',
      failure: { message: 'The model failed: Rate limited.', retryable: true, retryAfterMs: 2000 },
    });
    expect(run.agentRequests.map((r) => r.conversationKey)).toEqual([null, null, null]);
  });

  it('works only in a run, and needs an agent and a prompt', async () => {
    expect(await runAgent({ agentId: AGENT, prompt: 'x' }, null)).toMatchObject({
      kind: 'failure',
      failure: { message: 'This step works only while its flow runs.', retryable: false },
    });
    expect(await runAgent({ prompt: 'x' }, new FakeRun().control())).toMatchObject({
      kind: 'failure',
      failure: { retryable: false, details: { fields: { agentId: expect.any(Array) } } },
    });
  });

  it("lists the flow owner's agents", async () => {
    const options = await catalog.loadDynamicData({
      appKey: 'agents',
      key: 'listAgents',
      parameters: {},
      connection: null,
      owner: {
        flows: async () => [],
        forms: async () => [],
        agents: async () => [{ id: AGENT, name: 'Bookkeeper' }],
      },
    });
    expect(options).toEqual({ ok: true, value: [{ name: 'Bookkeeper', value: AGENT }] });
  });
});
