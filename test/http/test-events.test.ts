import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import { loadConfig } from '../../composition/config.js';
import { type Instance, startInstance } from '../../composition/instance.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow } from '../support/engine-flows.js';
import { type ApiResponse, installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';
import { brokerApp, MemoryBroker } from '../support/memory-broker.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('waiting for a test event (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect, { TEST_EVENT_MAX_WAIT_SECONDS: '20' });
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  /** An unpublished flow: a webhook trigger, and an action that upper-cases what the request sent. */
  const webhookFlow = () =>
    buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      (ids) => ({
        appKey: 'formatter',
        key: 'text',
        parameters: { transform: 'uppercase', input: `{{step.${ids[0]}.body.word}}` },
      }),
    ]);
  const wait = (stepId: string, body: unknown = { timeoutSeconds: 15 }) =>
    instance.request('POST', `/steps/${stepId}/test-event`, { token, body });
  const sendWebhook = (flowId: string, via: Pick<TestInstance['conveyor'], 'app'>, word: string) =>
    via.app.request(`/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ word }),
    });
  /** Sends requests until the wait answers: the first may reach the server before the wait looked. */
  const keepSending = async (waiting: Promise<ApiResponse>, send: () => unknown) => {
    let answered = false;
    void waiting.finally(() => (answered = true));
    while (!answered) {
      await sleep(400);
      if (!answered) await send();
    }
    return waiting;
  };

  it('answers the next request to the webhook as the trigger’s test output, not the one caught before', async () => {
    const { flowId, stepIds } = await webhookFlow();
    await sendWebhook(flowId, instance.conveyor, 'before');
    const res = await keepSending(wait(stepIds[0] as string), () => sendWebhook(flowId, instance.conveyor, 'next'));
    expect(res.status).toBe(200);
    expect(res.body.meta.type).toBe('Step');
    expect(res.body.data.id).toBe(stepIds[0]);
    expect(res.body.data.status).toBe('completed');
    expect(res.body.data.lastExecutionStep).toMatchObject({ status: 'success', dataOut: { body: { word: 'next' } } });
  });

  it('tests an action with the event: the flow runs up to it', async () => {
    const { flowId, stepIds } = await webhookFlow();
    const res = await keepSending(wait(stepIds[1] as string), () => sendWebhook(flowId, instance.conveyor, 'hello'));
    expect(res.status).toBe(200);
    expect(res.body.data.lastExecutionStep).toMatchObject({ status: 'success', dataOut: { output: 'HELLO' } });
  });

  it('waits for a published flow’s live runs', async () => {
    const { flowId, stepIds, call } = await webhookFlow();
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    const res = await keepSending(wait(stepIds[0] as string), () => sendWebhook(flowId, instance.conveyor, 'live'));
    expect(res.status).toBe(200);
    expect(res.body.data.lastExecutionStep.dataOut).toMatchObject({ body: { word: 'live' } });
  });

  it('answers 204 when nothing came within the time-out, and never waits past the instance’s limit', async () => {
    const { stepIds } = await webhookFlow();
    let started = Date.now();
    const res = await wait(stepIds[0] as string, { timeoutSeconds: 1 });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);

    const short = await startTestInstance(dialect, { TEST_EVENT_MAX_WAIT_SECONDS: '1' });
    try {
      const shortToken = await installAndSignIn(short);
      const flow = await buildFlow(short, shortToken, { appKey: 'webhook', key: 'catchRawWebhook' }, []);
      started = Date.now();
      const capped = await short.request('POST', `/steps/${flow.stepIds[0]}/test-event`, {
        token: shortToken,
        body: { timeoutSeconds: 600 },
      });
      expect(capped.status).toBe(204);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await short.close();
    }
  });

  it('refuses what it cannot wait for: bad input, no trigger chosen, a schedule', async () => {
    const { stepIds } = await webhookFlow();
    const bad = await wait(stepIds[0] as string, { timeoutSeconds: 0 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.timeoutSeconds).toEqual(['must be at least 1.']);
    expect((await wait(stepIds[0] as string, { timeoutSeconds: 'soon' })).status).toBe(422);
    expect((await wait(stepIds[0] as string, { other: 1 })).status).toBe(422);

    const empty = (await instance.request('POST', '/flows', { token })).body.data;
    const none = await wait(empty.steps[0].id, { timeoutSeconds: 1 });
    expect(none.status).toBe(422);
    expect(none.body.errors.general).toEqual(['Choose the flow’s trigger first.']);

    const scheduled = await buildFlow(
      instance,
      token,
      { appKey: 'scheduler', key: 'everyDay', parameters: { hour: 9, timezone: 'Europe/Berlin' } },
      [],
    );
    const schedule = await wait(scheduled.stepIds[0] as string, { timeoutSeconds: 1 });
    expect(schedule.status).toBe(422);
    expect(schedule.body.errors.general[0]).toMatch(/schedule has no event/);
  });

  it('ends the wait when the client hangs up: a later request is no test event', async () => {
    const { flowId, stepIds } = await webhookFlow();
    const server = await listen(instance);
    try {
      const client = new AbortController();
      const waiting = fetch(`${server.url}/api/v1/steps/${stepIds[1]}/test-event`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ timeoutSeconds: 15 }),
        signal: client.signal,
      });
      await sleep(500);
      client.abort();
      await expect(waiting).rejects.toThrow();
      await sleep(500);
      await sendWebhook(flowId, instance.conveyor, 'after');
      await sleep(1500);
      // The request's own test data only: a wait still going would have tested the action with it.
      const executions = (await instance.request('GET', `/executions?flowId=${flowId}`, { token })).body.data;
      expect(executions).toHaveLength(1);
      const records = (await instance.request('GET', `/executions/${executions[0].id}`, { token })).body.data.steps;
      expect(records.map((r: { stepId: string }) => r.stepId)).toEqual([stepIds[0]]);
    } finally {
      await server.close();
    }
  });

  if (dialect === 'postgres') {
    it('sees an event that reached another process', async () => {
      const other: Instance = await startInstance(
        loadConfig({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATABASE_URL: instance.database.url,
          WEB_APP_URL: 'http://conveyor.test',
          DATABASE_POOL_SIZE: '4',
          QUEUE: 'local',
        }),
        {},
        { worker: false },
      );
      try {
        const { flowId, stepIds } = await webhookFlow();
        const res = await keepSending(wait(stepIds[0] as string), () => sendWebhook(flowId, other, 'elsewhere'));
        expect(res.status).toBe(200);
        expect(res.body.data.lastExecutionStep.dataOut).toMatchObject({ body: { word: 'elsewhere' } });
      } finally {
        await other.close();
      }
    });
  }
});

describe.each(DIALECTS)('waiting for a listener trigger’s test event (%s)', (dialect) => {
  let broker: MemoryBroker;
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    broker = new MemoryBroker();
    instance = await startTestInstance(
      dialect,
      { TEST_EVENT_MAX_WAIT_SECONDS: '20' },
      {
        apps: [...builtInApps, brokerApp(broker)],
      },
    );
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  it('opens a subscription for an unpublished flow, takes its first message, and closes it', async () => {
    const connection = await instance.request('POST', '/apps/test-broker/connections', {
      token,
      body: { formattedData: { password: 'secret' } },
    });
    const { stepIds } = await buildFlow(
      instance,
      token,
      {
        appKey: 'test-broker',
        key: 'newMessage',
        parameters: { queue: 'orders' },
        connectionId: connection.body.data.id,
      },
      [],
    );
    const waiting = instance.request('POST', `/steps/${stepIds[0]}/test-event`, {
      token,
      body: { timeoutSeconds: 15 },
    });
    let answered = false;
    void waiting.finally(() => (answered = true));
    while (!answered && broker.consumers.size === 0) await sleep(100);
    broker.publish('orders', { order: 7 });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.data.lastExecutionStep).toMatchObject({ status: 'success', dataOut: { body: { order: 7 } } });
    expect(broker.consumers.size).toBe(0);
    expect(broker.queues.get('orders') ?? []).toHaveLength(0);
  });
});
