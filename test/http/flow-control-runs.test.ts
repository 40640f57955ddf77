import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually, executionDetail, sendWebhook } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/**
 * Issue 20, over HTTP on both databases: flows call flows and get their results, runs wait for a
 * request or an approval on their resume URL (across a restart) and go on, a failing flow starts
 * its error flow.
 */
describe.each(DIALECTS)('flow control apps on the engine (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    // On disk: a run waits across a restart of the instance.
    instance = await startTestInstance(dialect, { WEBHOOK_URL: 'http://hooks.test' }, {}, { onDisk: true });
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const runsOf = async (flowId: string) =>
    (await instance.request('GET', `/executions?flowId=${flowId}&perPage=100`, { token })).body.data.filter(
      (e: { testRun: boolean }) => !e.testRun,
    );

  it('calls a flow, waits for its result, and returns it', async () => {
    const callee = await buildFlow(instance, token, { appKey: 'flows', key: 'calledByFlow' }, [
      ([t]) => ({
        appKey: 'flows',
        key: 'returnResult',
        parameters: { result: `{"doubled": "{{step.${t}.n}}{{step.${t}.n}}"}` },
      }),
    ]);
    await callee.call('PATCH', `/flows/${callee.flowId}/status`, { active: true });
    const caller = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      ([t]) => ({
        appKey: 'flows',
        key: 'callFlow',
        parameters: {
          flowId: callee.flowId,
          input: [{ key: 'n', value: `{{step.${t}.body.n}}` }],
          waitForResult: true,
        },
      }),
    ]);
    await caller.call('PATCH', `/flows/${caller.flowId}/status`, { active: true });
    await sendWebhook(instance, caller.flowId, { n: 4 });
    const [run] = await eventually(
      () => runsOf(caller.flowId),
      (runs: any[]) => runs.length === 1 && runs[0].status === 'success',
      15000,
    );
    const detail = await executionDetail(instance, token, run.id);
    expect(detail.steps[1].dataOut).toMatchObject({ status: 'success', result: { doubled: '44' } });
  });

  it('answers a sync call with the result of the flow it called', async () => {
    const callee = await buildFlow(instance, token, { appKey: 'flows', key: 'calledByFlow' }, [
      ([t]) => ({ appKey: 'flows', key: 'returnResult', parameters: { result: `Hello, {{step.${t}.name}}!` } }),
    ]);
    await callee.call('PATCH', `/flows/${callee.flowId}/status`, { active: true });
    const caller = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: { workSynchronously: true } },
      [
        ([t]) => ({
          appKey: 'flows',
          key: 'callFlow',
          parameters: {
            flowId: callee.flowId,
            input: [{ key: 'name', value: `{{step.${t}.body.name}}` }],
            waitForResult: true,
          },
        }),
        ([, c]) => ({
          appKey: 'webhook',
          key: 'respondWith',
          parameters: {
            statusCode: 200,
            headers: [{ key: 'Content-Type', value: 'text/plain' }],
            body: `{{step.${c}.result}}`,
          },
        }),
      ],
    );
    await caller.call('PATCH', `/flows/${caller.flowId}/status`, { active: true });
    const res = await instance.conveyor.app.request(`/webhooks/flows/${caller.flowId}/sync`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Hello, Ada!');
  });

  it('answers 202 with the run at once when a sync call’s run waits for a request', async () => {
    const flow = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: { workSynchronously: true } },
      [() => ({ appKey: 'wait', key: 'waitForWebhook', parameters: { timeoutMinutes: 5 } })],
    );
    await flow.call('PATCH', `/flows/${flow.flowId}/status`, { active: true });
    const started = Date.now();
    const res = await instance.conveyor.app.request(`/webhooks/flows/${flow.flowId}/sync`, { method: 'POST' });
    expect(res.status).toBe(202);
    expect(Date.now() - started).toBeLessThan(5000);
    const [run] = await runsOf(flow.flowId);
    expect(run.status).toBe('waiting');
    expect(JSON.stringify(await res.json())).toContain(run.id);
  });

  for (const kind of ['webhook', 'approval'] as const) {
    it(`waits for ${kind} on the resume URL`, async () => {
      const flow = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
        () => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'url', value: '{{execution.resumeUrl}}' } }),
        () =>
          kind === 'webhook'
            ? { appKey: 'wait', key: 'waitForWebhook', parameters: { timeoutMinutes: 5 } }
            : { appKey: 'wait', key: 'waitForApproval', parameters: { message: 'ok?' } },
        ([, , w]) => ({
          appKey: 'datastore',
          key: 'setValue',
          parameters: { key: 'k', value: kind === 'webhook' ? `{{step.${w}.decision}}` : `{{step.${w}.approved}}` },
        }),
      ]);
      await flow.call('PATCH', `/flows/${flow.flowId}/status`, { active: true });
      await sendWebhook(instance, flow.flowId, {});
      const [run] = await eventually(
        () => runsOf(flow.flowId),
        (runs: any[]) => runs.length === 1 && runs[0].status === 'waiting',
        15000,
      );
      const waiting = await executionDetail(instance, token, run.id);
      const url = new URL(waiting.steps[1].dataOut.value);
      expect(url.origin).toBe('http://hooks.test');
      // The waiting run holds no worker and outlives the process.
      await instance.restart();
      expect((await executionDetail(instance, token, run.id)).status).toBe('waiting');
      if (kind === 'webhook') {
        const res = await instance.conveyor.app.request(url.pathname, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ decision: 'ship' }),
        });
        expect(res.status).toBe(202);
      } else {
        expect((await instance.conveyor.app.request(`${url.pathname}/approve`)).status).toBe(200);
        expect((await instance.conveyor.app.request(`${url.pathname}/approve`, { method: 'POST' })).status).toBe(200);
      }
      const [done] = await eventually(
        () => runsOf(flow.flowId),
        (runs: any[]) => runs.length === 1 && runs[0].status === 'success',
        15000,
      );
      const detail = await executionDetail(instance, token, done.id);
      expect(detail.steps[3].dataOut.value).toBe(kind === 'webhook' ? 'ship' : 'true');
    });
  }
  it('waits for a form and goes on with its answers', async () => {
    const form = (
      await instance.request('POST', '/forms', {
        token,
        body: { name: 'Leave', fields: [{ name: 'Days', key: 'days', type: 'string', required: true }] },
      })
    ).body.data;
    const flow = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'url', value: '{{execution.resumeUrl}}' } }),
      () => ({ appKey: 'wait', key: 'waitForForm', parameters: { formId: form.id } }),
      ([, , w]) => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'days', value: `{{step.${w}.days}}` } }),
    ]);
    await flow.call('PATCH', `/flows/${flow.flowId}/status`, { active: true });
    await sendWebhook(instance, flow.flowId, {});
    const [run] = await eventually(
      () => runsOf(flow.flowId),
      (runs: any[]) => runs.length === 1 && runs[0].status === 'waiting',
      15000,
    );
    const url = new URL((await executionDetail(instance, token, run.id)).steps[1].dataOut.value);
    const answered = await instance.conveyor.app.request(`${url.pathname}/forms/${form.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'days=3',
    });
    expect(answered.status).toBe(200);
    const [done] = await eventually(
      () => runsOf(flow.flowId),
      (runs: any[]) => runs.length === 1 && runs[0].status === 'success',
      15000,
    );
    expect((await executionDetail(instance, token, done.id)).steps[3].dataOut.value).toBe('3');
  });

  it('starts an error flow with the failure a stopExecution step made', async () => {
    const failing = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: 'flows', key: 'stopExecution', parameters: { status: 'failure', message: 'boom' } }),
    ]);
    await failing.call('PATCH', `/flows/${failing.flowId}/status`, { active: true });
    const watcher = await buildFlow(
      instance,
      token,
      { appKey: 'flows', key: 'executionFailed', parameters: { flowIds: [failing.flowId] } },
      [
        ([t]) => ({
          appKey: 'datastore',
          key: 'setValue',
          parameters: { key: 'e', value: `{{step.${t}.error.message}}` },
        }),
      ],
    );
    await watcher.call('PATCH', `/flows/${watcher.flowId}/status`, { active: true });
    await sendWebhook(instance, failing.flowId, {});
    const [run] = await eventually(
      () => runsOf(watcher.flowId),
      (runs: any[]) => runs.length === 1 && runs[0].status === 'success',
      15000,
    );
    const detail = await executionDetail(instance, token, run.id);
    expect(detail.steps[1].dataOut.value).toBe('boom');
    expect((await runsOf(failing.flowId))[0].status).toBe('failure');
  });
});
