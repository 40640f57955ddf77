import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import { LISTENER_LEASE_MS } from '../../core/domain/listener.js';
import { ShiftedClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { brokerApp, MemoryBroker } from '../support/memory-broker.js';

describe.each(DIALECTS)('listener triggers (%s)', (dialect) => {
  let broker: MemoryBroker;
  let instance: TestInstance;
  let token: string;

  const clock = new ShiftedClock();
  const start = async (env: Record<string, string> = {}) => {
    broker = new MemoryBroker();
    instance = await startTestInstance(dialect, env, { apps: [...builtInApps, brokerApp(broker)], clock });
    token = await installAndSignIn(instance);
  };
  afterEach(() => instance.close());

  const connect = async (password = 'secret') => {
    const res = await instance.request('POST', '/apps/test-broker/connections', {
      token,
      body: { formattedData: { password } },
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  /** A flow from a queue to `action`, published. */
  const listeningFlow = async (
    connectionId: string,
    queue: string,
    action: { appKey: string; key: string; parameters?: Record<string, unknown>; connectionId?: string } = {
      appKey: 'datastore',
      key: 'setValue',
      parameters: { key: 'last', value: '{{step.$trigger.body}}' },
    },
    extra: Record<string, unknown> = {},
  ) => {
    const built = await buildFlow(
      instance,
      token,
      { appKey: 'test-broker', key: 'newMessage', parameters: { queue, ...extra }, connectionId },
      [() => action],
    );
    await built.call('PATCH', `/flows/${built.flowId}/status`, { active: true });
    return built;
  };

  const flow = async (flowId: string) => (await instance.request('GET', `/flows/${flowId}`, { token })).body.data;
  const runs = async (flowId: string): Promise<any[]> =>
    (await instance.request('GET', `/executions?flowId=${flowId}&perPage=100`, { token })).body.data;
  const listening = (flowId: string) =>
    eventually(
      () => flow(flowId),
      (f) => f.listener?.status === 'listening',
    );

  describe('with the instance’s own worker', () => {
    beforeEach(() => start());

    it('opens the subscription on publish: each message starts one run, acknowledged after it is stored', async () => {
      const connectionId = await connect();
      const { flowId, stepIds } = await listeningFlow(connectionId, 'orders');
      const shown = await listening(flowId);
      expect(shown.listener).toEqual({
        status: 'listening',
        failures: 0,
        lastError: null,
        lastErrorAt: null,
        updatedAt: expect.any(Number),
      });
      for (let n = 1; n <= 20; n++) broker.publish('orders', `order ${n}`);
      const done = await eventually(
        () => runs(flowId),
        (rows) => rows.length === 20 && rows.every((r) => r.status === 'success'),
        10_000,
      );
      expect(done).toHaveLength(20);
      expect(broker.acked).toHaveLength(20);
      const detail = (await instance.request('GET', `/executions/${done[0].id}`, { token })).body.data;
      expect(detail.steps[0]).toMatchObject({
        stepId: stepIds[0],
        dataOut: { body: expect.stringMatching(/^order /) },
      });
    });

    it('closes it when unpublished, and a flow without a listener shows none', async () => {
      const connectionId = await connect();
      const { flowId, call } = await listeningFlow(connectionId, 'q1');
      await listening(flowId);
      expect(broker.consumers.size).toBe(1);
      await call('PATCH', `/flows/${flowId}/status`, { active: false });
      await eventually(
        async () => broker.consumers.size,
        (n) => n === 0,
      );
      expect((await flow(flowId)).listener).toBeNull();
      broker.publish('q1', 'while unpublished');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(broker.ready('q1')).toBe(1);
      expect(await runs(flowId)).toEqual([]);
    });

    it('shows a subscription that fails with its reason, and opens it again once the server is back', async () => {
      const connectionId = await connect();
      const { flowId } = await listeningFlow(connectionId, 'q2');
      await listening(flowId);
      broker.breakDown('connection reset by the broker');
      const failing = await eventually(
        () => flow(flowId),
        (f) => f.listener?.status === 'failing',
      );
      expect(failing.listener).toMatchObject({
        failures: expect.any(Number),
        lastError: 'connection reset by the broker',
        lastErrorAt: expect.any(Number),
      });
      broker.repair();
      const back = await eventually(
        () => flow(flowId),
        (f) => f.listener?.status === 'listening',
        10_000,
      );
      // The last error stays shown after it recovers.
      expect(back.listener).toMatchObject({ failures: 0, lastError: 'connection reset by the broker' });
      broker.publish('q2', 'after the restart');
      await eventually(
        () => runs(flowId),
        (rows) => rows.length === 1 && rows[0].status === 'success',
      );
    });

    it('opens it again with a connection whose fields changed', async () => {
      const connectionId = await connect('wrong');
      const { flowId } = await listeningFlow(connectionId, 'q3');
      await eventually(
        () => flow(flowId),
        (f) => f.listener?.status === 'failing' && f.listener.lastError === 'authentication failed',
      );
      const patched = await instance.request('PATCH', `/connections/${connectionId}`, {
        token,
        body: { formattedData: { password: 'secret' } },
      });
      expect(patched.status).toBe(200);
      // Opened again at once (the revision changed), not after the failure's backoff.
      await listening(flowId);
    });

    it('starts one run per message id and recognises a redelivery without one by its content', async () => {
      const connectionId = await connect();
      const { flowId } = await listeningFlow(connectionId, 'q4');
      await listening(flowId);
      broker.publish('q4', 'first', 'm-1');
      broker.publish('q4', 'first again', 'm-1'); // the same id: the server's redelivery
      broker.publish('q4', 'same'); // equal contents, both new: two runs
      broker.publish('q4', 'same');
      await eventually(
        () => runs(flowId),
        (rows) => rows.length === 3 && rows.every((r) => r.status === 'success'),
      );
      // A redelivery flagged by the server, of content already accepted, starts nothing.
      broker.queues.get('q4')?.push({ body: 'same', redelivered: true });
      broker.publish('q4', 'last');
      await eventually(
        () => runs(flowId),
        (rows) => rows.length === 4,
      );
      await eventually(
        async () => broker.acked.length,
        (n) => n === 6,
      );
      expect(await runs(flowId)).toHaveLength(4);
    });

    it('takes no more messages while the flow’s backlog is full, and the server holds them', async () => {
      await instance.close();
      await start({ LISTENER_MAX_BACKLOG_PER_FLOW: '3' });
      const release = broker.holdRuns();
      const connectionId = await connect();
      const { flowId } = await listeningFlow(
        connectionId,
        'q5',
        { appKey: 'test-broker', key: 'hold', connectionId },
        { prefetch: 2 },
      );
      await listening(flowId);
      for (let n = 1; n <= 12; n++) broker.publish('q5', `m${n}`);
      await eventually(
        async () => broker.holding,
        (n) => n === 3,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const held = await runs(flowId);
      // The backlog limit, plus at most what was being accepted when the count was taken.
      expect(held.length).toBeLessThanOrEqual(3 + 2);
      expect(broker.ready('q5')).toBeGreaterThanOrEqual(12 - held.length - 2);
      release();
      await eventually(
        () => runs(flowId),
        (rows) => rows.length === 12 && rows.every((r) => r.status === 'success'),
        15_000,
      );
    });
  });

  describe('with two processes’ supervisors on one database', () => {
    beforeEach(() => start({ SERVER_RUNS_FLOWS: 'false' }));

    it('lets one hold a subscription; the other takes it over once the holder’s lease runs out', async () => {
      const connectionId = await connect();
      const { flowId } = await listeningFlow(connectionId, 'shared');
      const one = instance.conveyor.useCases.listeners('one');
      const two = instance.conveyor.useCases.listeners('two');
      try {
        await one.tick();
        await two.tick();
        await eventually(
          async () => broker.consumers.size,
          (n) => n === 1,
        );
        expect(one.openFlows()).toEqual([flowId]);
        expect(two.openFlows()).toEqual([]);
        await two.tick();
        expect(two.openFlows()).toEqual([]);

        // `one` stops without a word (its process died): nobody renews its lease; after it, `two` takes over.
        broker.breakDown('holder died');
        broker.repair();
        clock.advance(LISTENER_LEASE_MS + 1);
        await two.tick();
        await eventually(
          async () => two.openFlows(),
          (open) => open.includes(flowId),
        );
        // `one` comes back: its renewal finds the lease gone, so it does not open it again.
        await one.tick();
        expect(one.openFlows()).toEqual([]);
        broker.publish('shared', 'after the takeover');
        await eventually(
          () => runs(flowId),
          (rows) => rows.length === 1,
        );
      } finally {
        await one.stop();
        await two.stop();
      }
    });

    it('hands a stopping process’s subscriptions to another at once', async () => {
      const connectionId = await connect();
      const { flowId } = await listeningFlow(connectionId, 'handover');
      const one = instance.conveyor.useCases.listeners('one');
      const two = instance.conveyor.useCases.listeners('two');
      await one.tick();
      await eventually(
        async () => one.openFlows(),
        (open) => open.length === 1,
      );
      await one.stop();
      expect(broker.consumers.size).toBe(0);
      await two.tick();
      await eventually(
        async () => two.openFlows(),
        (open) => open.includes(flowId),
      );
      await two.stop();
    });
  });
});
