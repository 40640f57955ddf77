import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../ports/job-queue.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/** A queue whose database is away: every send fails, as pg-boss's does while PostgreSQL restarts. */
const unreachableQueue: JobQueue = {
  send: async () => {
    throw new Error('Connection terminated unexpectedly');
  },
  schedule: async () => {},
  unschedule: async () => {},
  work: async () => {},
  depth: async () => ({}),
  prepare: async () => {},
  stop: async () => {},
};

/**
 * A webhook's run is durable once stored; handing it to the queue may fail afterwards. The caller
 * must still get its 2xx: an error would make a sender retry, and the retry would start the same
 * run a second time. The reaper sends the stored run to the queue later.
 */
describe.each(DIALECTS)('a webhook whose run cannot be queued (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect, {}, { queue: unreachableQueue });
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  it('is acknowledged once its run is stored, and the run waits for the reaper', async () => {
    const { flowId, call } = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'k', value: 'v' } }),
    ]);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });

    const res = await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"n": 1}',
    });
    expect(res.status).toBe(204);
    const runs = (await instance.request('GET', `/executions?flowId=${flowId}`, { token })).body.data;
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe('running');
  });
});
