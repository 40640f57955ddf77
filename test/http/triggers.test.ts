import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalHttpServer, startHttpServer } from '../apps/support/http-server.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/** A feed whose items the test changes between polls. */
let items: string[] = [];
let feed: LocalHttpServer;
const rss = () =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Local</title>${items
    .map((id) => `<item><title>Item ${id}</title><guid>${id}</guid></item>`)
    .join('')}</channel></rss>`;

beforeAll(async () => {
  feed = await startHttpServer((_request, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(rss());
  });
});
afterAll(() => feed.close());

describe.each(DIALECTS)('schedule and polling triggers (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect, { ALLOW_PRIVATE_NETWORKS: 'true' });
    token = await installAndSignIn(instance);
    items = [];
  });
  afterEach(() => instance.close());

  const runs = async (flowId: string): Promise<any[]> =>
    (await instance.request('GET', `/executions?flowId=${flowId}&perPage=100`, { token })).body.data;

  it('fires a published schedule: one run a tick, none once unpublished', async () => {
    const { flowId, call } = await buildFlow(
      instance,
      token,
      { appKey: 'scheduler', key: 'everyDay', parameters: { hour: 9, timezone: 'Europe/Berlin' } },
      [() => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'tick', value: 'yes' } })],
    );
    await instance.conveyor.useCases.fireTrigger(flowId);
    expect(await runs(flowId)).toEqual([]);

    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await instance.conveyor.useCases.fireTrigger(flowId);
    const [run] = await eventually(
      () => runs(flowId),
      (rows) => rows.length === 1 && rows[0].status === 'success',
    );
    const steps = (await instance.request('GET', `/executions/${run.id}`, { token })).body.data.steps;
    expect(steps[0].dataOut).toMatchObject({ firedAt: expect.any(String) });

    await call('PATCH', `/flows/${flowId}/status`, { active: false });
    await instance.conveyor.useCases.fireTrigger(flowId);
    expect(await runs(flowId)).toHaveLength(1);
  });

  it('polls a feed: the first look only learns, each new item then starts one run', async () => {
    items = ['a', 'b'];
    const { flowId, stepIds, call } = await buildFlow(
      instance,
      token,
      { appKey: 'rss', key: 'newItemsInFeed', parameters: { feedUrl: `${feed.url}/feed.xml` } },
      [
        ([trigger]) => ({
          appKey: 'datastore',
          key: 'setValue',
          parameters: { key: 'last', value: `{{step.${trigger}.title}}` },
        }),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await instance.conveyor.useCases.fireTrigger(flowId);
    expect(await runs(flowId)).toEqual([]);

    items = ['d', 'c', 'a', 'b'];
    await instance.conveyor.useCases.fireTrigger(flowId);
    await instance.conveyor.useCases.fireTrigger(flowId);
    const rows = await eventually(
      () => runs(flowId),
      (r) => r.length === 2 && r.every((e: { status: string }) => e.status === 'success'),
    );
    const titles = await Promise.all(
      rows.map(async (row: { id: string }) => {
        const steps = (await instance.request('GET', `/executions/${row.id}`, { token })).body.data.steps;
        expect(steps.map((s: { stepId: string }) => s.stepId)).toEqual(stepIds);
        return steps[1].dataOut.value;
      }),
    );
    expect(titles.sort()).toEqual(['Item c', 'Item d']);
  });
});

describe('delays', () => {
  it('wait durably: a run waiting when the process stops goes on after a restart', async () => {
    const first = await startTestInstance('sqlite', {}, {}, { onDisk: true });
    const token = await installAndSignIn(first);
    const { flowId, call } = await buildFlow(
      first,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [
        () => ({ appKey: 'delay', key: 'delayFor', parameters: { delayForUnit: 'minutes', delayForValue: 0.01 } }),
        () => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'after', value: 'delay' } }),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await first.conveyor.app.request(`/webhooks/flows/${flowId}`, { method: 'POST' });
    const list = async (instance: TestInstance, as: string): Promise<any[]> =>
      (await instance.request('GET', `/executions?flowId=${flowId}`, { token: as })).body.data;
    const [waiting] = await eventually(
      () => list(first, token),
      (rows) => rows[0]?.status === 'waiting',
    );
    expect(waiting.resumeAt - waiting.createdAt).toBeGreaterThanOrEqual(500);

    // Stop without deleting the database file, and start again on it.
    await first.conveyor.close();
    const second = await startTestInstance('sqlite', { DATABASE_URL: first.database.url });
    try {
      const again = await installAndSignIn(second).catch(() => null);
      const as =
        again ??
        (
          await second.request('POST', '/access-tokens', {
            body: { email: 'ada@example.com', password: 'correct horse battery' },
          })
        ).body.data.token;
      const [done] = await eventually(
        () => list(second, as),
        (rows) => rows[0]?.status === 'success',
      );
      const steps = (await second.request('GET', `/executions/${done.id}`, { token: as })).body.data.steps;
      expect(steps).toHaveLength(3);
      // The delay app's output is flow data, in the app's own format (ISO); the API's timestamp is in ms.
      expect(steps[1].dataOut).toMatchObject({ delayUntil: new Date(waiting.resumeAt).toISOString() });
    } finally {
      await second.conveyor.close();
      await first.database.drop();
    }
  });
});
