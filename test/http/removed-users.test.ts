import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { eventually } from '../support/engine-flows.js';
import { FLOW_TEST_APPS, NOTES_CREDENTIALS } from '../support/flow-apps.js';
import {
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';
import { rawQuery } from '../support/raw-sql.js';

const HOUR = 60 * 60_000;

/**
 * Removing a user (an administrator's DELETE /admin/users/:id, or the user's own DELETE
 * /users/:id) stops what they left running: their flows take no webhook and fire no schedule,
 * their pending and waiting runs end as failed at their next turn, and their connections serve
 * nobody's step.
 */
describe.each(DIALECTS)('a removed user’s flows and connections (%s)', (dialect) => {
  let instance: TestInstance;
  let clock: ShiftedClock;
  let adminToken: string;
  let bob: { id: string; token: string };
  beforeEach(async () => {
    clock = new ShiftedClock();
    instance = await startTestInstance(dialect, {}, { apps: FLOW_TEST_APPS, clock }, { onDisk: true });
    adminToken = await installAndSignIn(instance);
    await enableRegistration(instance, adminToken);
    bob = await registerAndSignIn(instance, BOB);
  });
  afterEach(() => instance.close());

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await instance.request(method, path, { token, ...(body !== undefined && { body }) });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body?.data;
  };
  const notesConnection = async (token: string): Promise<string> =>
    (await call('POST', '/apps/test-notes/connections', token, { formattedData: NOTES_CREDENTIALS })).id;
  /** A flow of the token's owner: a webhook, then `actions` (each a step body), published. */
  const publishedFlow = async (token: string, trigger: object, actions: object[]) => {
    const flow = await call('POST', '/flows', token);
    await call('PATCH', `/steps/${flow.steps[0].id}`, token, trigger);
    let previous = flow.steps[0].id as string;
    for (const [index, action] of actions.entries()) {
      const stepId =
        index === 0
          ? flow.steps[1].id
          : (await call('POST', `/flows/${flow.id}/steps`, token, { previousStepId: previous })).id;
      await call('PATCH', `/steps/${stepId}`, token, action);
      previous = stepId;
    }
    await call('PATCH', `/flows/${flow.id}/status`, token, { active: true });
    return flow.id as string;
  };
  const WEBHOOK = { appKey: 'test-webhook', key: 'catchRawWebhook' };
  const note = (connectionId: string) => ({
    appKey: 'test-notes',
    key: 'addNote',
    connectionId,
    parameters: { title: 'hello' },
  });
  const webhook = async (flowId: string) =>
    (await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, { method: 'POST' })).status;
  const runs = async (flowId: string) =>
    (await call('GET', `/executions?flowId=${flowId}&perPage=100`, adminToken)) as { id: string; status: string }[];
  const removeBob = () => call('DELETE', `/admin/users/${bob.id}`, adminToken);

  it('answers their webhooks as for an unknown flow, and unpublishes their flows', async () => {
    const flowId = await publishedFlow(bob.token, WEBHOOK, [note(await notesConnection(bob.token))]);
    expect(await webhook(flowId)).toBe(204);
    await eventually(
      () => runs(flowId),
      (rows) => rows.length === 1 && rows[0]?.status === 'success',
    );

    await removeBob();
    const res = await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { meta: { type: string } }).meta.type).toBe('NotFoundError');
    expect((await call('GET', `/flows/${flowId}`, adminToken)).active).toBe(false);
    expect(await runs(flowId)).toHaveLength(1);
  });

  it('stops them when users delete their own account too', async () => {
    const flowId = await publishedFlow(bob.token, WEBHOOK, [note(await notesConnection(bob.token))]);
    await call('DELETE', `/users/${bob.id}`, bob.token);
    expect(await webhook(flowId)).toBe(404);
  });

  it('takes their schedules down, and a schedule that fires anyway starts nothing', async () => {
    const flowId = await publishedFlow(bob.token, { appKey: 'scheduler', key: 'everyHour', parameters: {} }, [
      { appKey: 'datastore', key: 'setValue', parameters: { key: 'tick', value: 'yes' } },
    ]);
    const schedules = async () =>
      (await rawQuery(instance.database.url, 'select key from job_schedules')).map((row) => row.key);
    expect(await schedules()).toEqual([`flow:${flowId}`]);

    await removeBob();
    expect(await schedules()).toEqual([]);
    await instance.conveyor.useCases.fireTrigger(flowId);
    expect(await runs(flowId)).toEqual([]);
  });

  it('ends their waiting runs as failed when they come due, running no further step', async () => {
    const flowId = await publishedFlow(bob.token, WEBHOOK, [
      { appKey: 'delay', key: 'delayFor', parameters: { delayForUnit: 'hours', delayForValue: 1 } },
      note(await notesConnection(bob.token)),
    ]);
    expect(await webhook(flowId)).toBe(204);
    const [waiting] = await eventually(
      () => runs(flowId),
      (rows) => rows[0]?.status === 'waiting',
    );
    await removeBob();

    clock.advance(2 * HOUR);
    await instance.conveyor.useCases.runExecution(waiting?.id ?? '', 'test-worker');
    const run = await call('GET', `/executions/${waiting?.id}`, adminToken);
    expect(run.status).toBe('failure');
    expect(run.steps.map((s: { status: string }) => s.status)).toEqual(['success', 'success']);
  });

  it('refuses their connections to any step, with a clear error', async () => {
    // The administrator may pick any user's connection for a step of their own.
    const bobsConnection = await notesConnection(bob.token);
    const flowId = await publishedFlow(adminToken, WEBHOOK, [note(bobsConnection)]);
    await removeBob();

    expect(await webhook(flowId)).toBe(204);
    const [run] = await eventually(
      () => runs(flowId),
      (rows) => rows[0]?.status === 'failure',
    );
    const steps = (await call('GET', `/executions/${run?.id}`, adminToken)).steps;
    expect(steps[1].errorDetails).toEqual({ message: 'The step’s connection belonged to a removed user.' });
  });
});
