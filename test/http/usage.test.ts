import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import { defineAction, defineApp, noAuth, text } from '../../adapters/apps/sdk/index.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { TEST_ICON } from '../support/test-icon.js';

const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;

/** An action that fails the first time it sees a key and succeeds after: a step to retry. */
const seen = new Set<string>();
const flakyApp = defineApp({
  key: 'test-flaky',
  name: 'Test flaky',
  description: 'Fails once per key.',
  icon: TEST_ICON,
  primaryColor: '#000000',
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [
    defineAction({
      key: 'failOnce',
      name: 'Fail once',
      description: 'Fails the first time it sees the key.',
      arguments: { key: text({ label: 'Key', required: true, acceptsVariables: true }) },
      run: async (ctx) => {
        if (!seen.has(ctx.parameters.key)) {
          seen.add(ctx.parameters.key);
          throw new Error(`first sight of ${ctx.parameters.key}`);
        }
        return { key: ctx.parameters.key };
      },
    }),
  ],
});

describe.each(DIALECTS)('plan and usage without billing (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  let userId: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect, {}, { apps: [...builtInApps, flakyApp] });
    token = await installAndSignIn(instance);
    userId = (await instance.request('GET', '/users/me', { token })).body.data.id;
  });
  afterEach(() => instance.close());

  const usage = async () => {
    const res = await instance.request('GET', `/users/${userId}/plan-and-usage`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const hook = async (flowId: string, body: unknown) => {
    const res = await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(204);
  };
  /** The flow's runs that are not tests. */
  const runsOf = async (flowId: string): Promise<any[]> =>
    (await instance.request('GET', `/executions?flowId=${flowId}&perPage=100`, { token })).body.data.filter(
      (r: { testRun: boolean }) => !r.testRun,
    );
  const settled = (flowId: string, count: number) =>
    eventually(
      () => runsOf(flowId),
      (runs) => runs.length === count && runs.every((r) => r.status === 'success' || r.status === 'failure'),
    );
  const detail = async (executionId: string) =>
    (await instance.request('GET', `/executions/${executionId}`, { token })).body.data;

  it('is the unlimited self-hosted plan over the calendar month, with no task used yet', async () => {
    const body = await usage();
    const now = new Date();
    expect(body).toEqual({
      plan: { id: 'self-hosted', name: 'Self-hosted', limit: null },
      usage: {
        task: 0,
        periodStart: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
        periodEnd: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1),
      },
    });
  });

  it('counts the action steps runs executed: not triggers, tests, or the steps a retry carries over', async () => {
    const { flowId, stepIds, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [
        ([trigger]) => ({
          appKey: 'formatter',
          key: 'text',
          parameters: { transform: 'uppercase', input: ref(trigger as string, 'body.name') },
        }),
        ([trigger]) => ({
          appKey: 'filter',
          key: 'continueIfMatches',
          parameters: { or: [{ and: [{ key: ref(trigger as string, 'body.vip'), operator: 'equal', value: 'yes' }] }] },
        }),
        ([trigger]) => ({
          appKey: 'test-flaky',
          key: 'failOnce',
          parameters: { key: `${dialect}-${ref(trigger as string, 'body.name')}` },
        }),
      ],
    );
    // A test of a step, before publishing, runs an action but is not usage.
    await hook(flowId, { name: 'test', vip: 'yes' });
    expect((await instance.request('POST', `/steps/${stepIds[1]}/test`, { token })).status).toBe(200);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });

    await hook(flowId, { name: 'ada', vip: 'yes' }); // formatter, filter, flaky (fails: so does the run)
    await hook(flowId, { name: 'bob', vip: 'no' }); // formatter, filter (stops the run)
    await settled(flowId, 2);
    const failed = (await runsOf(flowId)).find((r) => r.status === 'failure');
    expect(failed).toBeDefined();
    // The retry starts from the failed step: the formatter and the filter are carried over, not run.
    const retried = await instance.request('POST', `/executions/${failed.id}/retry`, { token });
    expect(retried.status).toBe(201);
    await settled(flowId, 3);
    expect((await detail(retried.body.data.id)).status).toBe('success');

    const runs = await runsOf(flowId);
    expect(runs).toHaveLength(3);
    // Usage, counted independently from what the API shows of each run: its action steps,
    // less those a retry copied from the run it retries.
    let executed = 0;
    for (const run of runs) {
      const steps = (await detail(run.id)).steps.filter((s: { stepId: string }) => s.stepId !== stepIds[0]);
      const carried = run.retryOf
        ? (await detail(run.retryOf)).steps.filter(
            (s: { stepId: string; status: string }) => s.stepId !== stepIds[0] && s.status === 'success',
          ).length
        : 0;
      executed += steps.length - carried;
    }
    expect(executed).toBe(3 + 2 + 1);
    expect((await usage()).usage.task).toBe(executed);

    // History going away does not give tasks back.
    expect((await instance.request('DELETE', `/flows/${flowId}`, { token })).status).toBe(204);
    expect((await usage()).usage.task).toBe(executed);
  });

  it('answers another user’s plan and usage with 403, and billing-only routes with 404', async () => {
    const other = await instance.request('GET', '/users/00000000-0000-4000-8000-000000000000/plan-and-usage', {
      token,
    });
    expect(other.status).toBe(403);
    for (const path of [`/users/${userId}/subscription`, '/users/invoices', '/payment/plans']) {
      const res = await instance.request('GET', path, { token });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({
        errors: { general: ['Billing is not enabled on this instance.'] },
        meta: { type: 'NotFoundError' },
      });
    }
    const webhook = await instance.request('POST', '/billing/webhooks', { body: {} });
    expect(webhook.status).toBe(404);
  });
});
