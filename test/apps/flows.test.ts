import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SAMPLE_FAILURE } from '../../adapters/apps/flows/failures.js';
import { builtInApps, createAppCatalog } from '../../adapters/apps/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import type { OwnerData } from '../../ports/app-catalog.js';
import type { RunControl, StepStore } from '../../ports/step-runner.js';
import { FakeRun } from '../fakes/run-control.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
const runner = createStepRunner(catalog, builtInApps);
afterAll(() => catalog.close());

const NOW = new Date('2026-05-01T10:00:00.000Z');
const HOUR = 3_600_000;
const FLOW_B = '6f1f0000-0000-4000-8000-00000000000b';

const memoryStore = (): StepStore & { values: Map<string, unknown> } => {
  const values = new Map<string, unknown>();
  return { values, get: async (key) => values.get(key), set: async (key, value) => void values.set(key, value) };
};

const action = (key: string, parameters: Record<string, unknown>, run: RunControl | null, store = memoryStore()) =>
  runner.runAction({ appKey: 'flows', key, parameters, connection: null, store, execution: null, run });

/** The engine starts the trigger's runs with a call (`ctx.webhook`), and tests it without one. */
const trigger = (key: string, store: StepStore, body?: unknown) =>
  runner.runTrigger({
    appKey: 'flows',
    key,
    parameters: {},
    connection: null,
    store,
    execution: null,
    webhook: body === undefined ? null : { method: 'CALL', headers: {}, query: {}, body },
  });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('flows: calledByFlow', () => {
  it("outputs the caller's input, and answers the last one when tested without a call", async () => {
    const store = memoryStore();
    expect(await trigger('calledByFlow', store)).toEqual({ kind: 'success', items: [] });
    expect(await trigger('calledByFlow', store, { orderId: 7, note: 'x' })).toEqual({
      kind: 'success',
      items: [{ data: { orderId: 7, note: 'x' } }],
    });
    expect(await trigger('calledByFlow', store)).toEqual({
      kind: 'success',
      items: [{ data: { orderId: 7, note: 'x' } }],
    });
    // Its memory lives apart from the datastore app's keys.
    expect([...store.values.keys()]).toEqual(['flows:lastInput']);
  });

  it('has no trigger type: neither a webhook, a poll nor a schedule starts it', () => {
    const described = catalog.find('flows')?.triggers.find((t) => t.key === 'calledByFlow');
    expect(described).toBeDefined();
    expect(described?.type).toBeUndefined();
    expect(runner.scheduleOf('flows', 'calledByFlow', {})).toBeNull();
  });
});

describe('flows: callFlow', () => {
  it('calls the flow with the input as an object, once, and waits for its result', async () => {
    const run = new FakeRun();
    const parameters = {
      flowId: FLOW_B,
      input: [
        { key: 'orderId', value: '{"not":"parsed"}' },
        { key: 'n', value: 3 },
      ],
    };
    expect(await action('callFlow', parameters, run.control())).toEqual({
      kind: 'suspend',
      until: new Date(NOW.getTime() + HOUR),
    });
    const [call] = [...run.calls.values()];
    expect(call).toMatchObject({ flowId: FLOW_B, input: { orderId: '{"not":"parsed"}', n: '3' } });

    // Woken before the called run ended: it sleeps again, and calls nothing more.
    expect((await action('callFlow', parameters, run.control())).kind).toBe('suspend');
    expect(run.calls.size).toBe(1);

    run.finish(call?.executionId as string, { status: 'success', result: { total: 12 }, error: null });
    expect(await action('callFlow', parameters, run.control())).toEqual({
      kind: 'success',
      output: { executionId: call?.executionId, status: 'success', result: { total: 12 } },
    });
  });

  it('goes on at once without waiting for the result', async () => {
    const run = new FakeRun();
    const outcome = await action('callFlow', { flowId: FLOW_B, waitForResult: 'false' }, run.control());
    expect(outcome).toEqual({
      kind: 'success',
      output: { executionId: [...run.calls.values()][0]?.executionId, status: 'running', result: null },
    });
  });

  it("fails, for good, with the called run's error, or with why the call was refused", async () => {
    const run = new FakeRun();
    await action('callFlow', { flowId: FLOW_B }, run.control());
    const id = [...run.calls.values()][0]?.executionId as string;
    run.finish(id, { status: 'failure', result: null, error: 'The API answered 500.' });
    expect(await action('callFlow', { flowId: FLOW_B }, run.control())).toEqual({
      kind: 'failure',
      failure: { message: 'The called flow failed: The API answered 500.', retryable: false },
    });

    const refusing = new FakeRun();
    refusing.refuse(FLOW_B, 'The flow is not published.');
    expect(await action('callFlow', { flowId: FLOW_B }, refusing.control())).toEqual({
      kind: 'failure',
      failure: { message: 'The flow could not be called: The flow is not published.', retryable: false },
    });
  });

  it('works only in a run', async () => {
    expect(await action('callFlow', { flowId: FLOW_B }, null)).toEqual({
      kind: 'failure',
      failure: { message: 'This step works only while its flow runs.', retryable: false },
    });
  });

  it("lists the flow owner's flows to call", async () => {
    const owner: OwnerData = {
      forms: async () => [],
      agents: async () => [],
      flows: async () => [
        { id: 'a', name: 'Archive orders' },
        { id: 'b', name: 'Bill customers' },
      ],
    };
    const request = { appKey: 'flows', key: 'listFlows', parameters: {}, connection: null };
    expect(await catalog.dynamicData({ ...request, owner })).toEqual([
      { name: 'Archive orders', value: 'a' },
      { name: 'Bill customers', value: 'b' },
    ]);
    expect(await catalog.dynamicData(request)).toEqual([]);
  });
});

describe('flows: returnResult and stopExecution', () => {
  it('returnResult ends the run with the result, JSON as JSON', async () => {
    const run = new FakeRun().control();
    expect(await action('returnResult', { result: '{"total": 12}' }, run)).toEqual({
      kind: 'stop',
      output: { result: { total: 12 } },
    });
    expect(await action('returnResult', { result: 'done' }, run)).toEqual({ kind: 'stop', output: { result: 'done' } });
    expect(await action('returnResult', {}, run)).toEqual({ kind: 'stop', output: { result: null } });
  });

  it('stopExecution ends the run as a success, or as a failure with the message as its reason', async () => {
    expect(await action('stopExecution', { status: 'success', message: 'Nothing to do' }, null)).toEqual({
      kind: 'stop',
      output: { status: 'success', message: 'Nothing to do' },
    });
    expect(await action('stopExecution', { status: 'failure', message: 'Stock is empty' }, null)).toEqual({
      kind: 'stop',
      output: { status: 'failure', message: 'Stock is empty' },
      failure: 'Stock is empty',
    });
    expect(await action('stopExecution', { status: 'failure' }, null)).toEqual({
      kind: 'stop',
      output: { status: 'failure', message: null },
      failure: 'The flow stopped its run.',
    });
  });
});

describe('flows: executionFailed', () => {
  const failure = {
    flow: { id: FLOW_B, name: 'Bill customers' },
    execution: { id: '6f1f0000-0000-4000-8000-0000000000e1', startedAt: '2026-04-30T08:00:00.000Z' },
    step: { id: '6f1f0000-0000-4000-8000-0000000000s1', position: 2, appKey: 'smtp', key: 'sendEmail', name: null },
    error: { message: 'Greylisted' },
  };

  it('outputs the failure it is handed; tested without one, the last failure, or an example', async () => {
    const store = memoryStore();
    expect(await trigger('executionFailed', store)).toEqual({ kind: 'success', items: [{ data: SAMPLE_FAILURE }] });
    expect(Object.keys(SAMPLE_FAILURE)).toEqual(Object.keys(failure));
    expect(await trigger('executionFailed', store, failure)).toEqual({ kind: 'success', items: [{ data: failure }] });
    expect(await trigger('executionFailed', store)).toEqual({ kind: 'success', items: [{ data: failure }] });
  });

  it('watches chosen flows, a list of their ids; none chosen is every flow', () => {
    const check = (flowIds: unknown) => catalog.checkStepParameters('flows', 'trigger', 'executionFailed', { flowIds });
    expect(check(['a', 'b', 'a'])).toBeNull();
    expect(check([])).toBeNull();
    expect(check(undefined)).toBeNull();
    expect(check('a')).toEqual({ flowIds: ['must be a list of options.'] });
    expect(check([{ id: 'a' }])).toEqual({ flowIds: ['must be a list of options.'] });
    const argument = catalog
      .find('flows')
      ?.triggers.find((t) => t.key === 'executionFailed')
      ?.arguments.find((a) => a.key === 'flowIds');
    expect(argument).toMatchObject({ type: 'dropdown', multiple: true, dynamicData: { key: 'listFlows' } });
  });
});
