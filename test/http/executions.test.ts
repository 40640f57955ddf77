import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually, finishedRuns, ref, sendWebhook } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

describe.each(DIALECTS)('running flows (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect);
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const webhookToStore = () =>
    buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} }, [
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
      ([, formatted]) => ({
        appKey: 'datastore',
        key: 'setValue',
        parameters: { key: 'last', value: ref(formatted as string, 'output') },
      }),
    ]);

  const executions = async (query = '') => (await instance.request('GET', `/executions${query}`, { token })).body;

  it('runs a published flow for each webhook: every step recorded, filters stop the run', async () => {
    const { flowId, stepIds, call } = await webhookToStore();
    const published = await call('PATCH', `/flows/${flowId}/status`, { active: true });
    expect(published.status).toBe('published');

    const hook = (body: unknown) =>
      instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await hook({ name: 'ada', vip: 'yes' })).status).toBe(204);
    expect((await hook({ name: 'bob', vip: 'no' })).status).toBe(204);

    const list = await eventually(
      () => executions(`?flowId=${flowId}`),
      (body) => body.data.length === 2 && body.data.every((e: { status: string }) => e.status === 'success'),
    );
    expect(list.meta).toMatchObject({ type: 'Execution', count: 2, currentPage: 1 });

    const details = await Promise.all(
      list.data.map((e: { id: string }) => instance.request('GET', `/executions/${e.id}`, { token })),
    );
    const byName = Object.fromEntries(details.map((d) => [d.body.data.steps[0].dataOut.body.name, d.body.data]));
    const ada = byName.ada;
    expect(ada.steps.map((s: { stepId: string }) => s.stepId)).toEqual(stepIds);
    expect(ada.steps[1].dataOut).toEqual({ output: 'ADA' });
    expect(ada.steps[3]).toMatchObject({ status: 'success', dataOut: { key: 'last', value: 'ADA' } });
    // Bob was filtered out: the run ends, successfully, after the filter.
    expect(byName.bob.steps.map((s: { stepId: string }) => s.stepId)).toEqual(stepIds.slice(0, 3));
    expect(byName.bob.status).toBe('success');

    const paged = await instance.request('GET', `/executions/${ada.id}/execution-steps?perPage=2`, { token });
    expect(paged.body.meta).toMatchObject({ type: 'ExecutionStep', count: 4, totalPages: 2 });
    expect(paged.body.data.map((s: { stepId: string }) => s.stepId)).toEqual(stepIds.slice(0, 2));
  });

  it('embeds what Automatisch embeds: the flow with its steps in an execution, the step in a record', async () => {
    const { flowId, stepIds, call } = await webhookToStore();
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    const flow = await call('GET', `/flows/${flowId}`);
    await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ada', vip: 'yes' }),
    });
    const [listed] = await eventually(
      async (): Promise<any[]> => (await executions(`?flowId=${flowId}`)).data,
      (rows) => rows[0]?.status === 'success',
    );
    // The flow as GET /flows/:flowId answers it, steps and all (Automatisch's client draws their icons).
    expect(listed.flow).toEqual(flow);
    expect(listed.flow.steps.map((s: { id: string }) => s.id)).toEqual(stepIds);
    const detail = (await instance.request('GET', `/executions/${listed.id}`, { token })).body.data;
    expect(detail.flow).toEqual(flow);

    // Each record carries its step (Automatisch's client reads `executionStep.step.type`).
    const records = (await instance.request('GET', `/executions/${listed.id}/execution-steps`, { token })).body.data;
    // The steps as the run ran them: its version's (which the draft still equals here).
    const untimed = ({ createdAt: _c, updatedAt: _u, ...step }: any) => step;
    expect(records.map((r: any) => untimed(r.step))).toEqual(flow.steps.map(untimed));
    expect(detail.flowVersion).toEqual(flow.publishedVersion);
    expect(records[0].step).toMatchObject({ id: stepIds[0], type: 'trigger', appKey: 'webhook', position: 1 });
    expect(records[0].step.webhookUrl).toContain(`/webhooks/flows/${flowId}`);
    expect(records[1].step).toMatchObject({ type: 'action', appKey: 'formatter', key: 'text', position: 2 });
    expect(records[0].updatedAt).toBe(records[0].createdAt);
    expect(detail.steps).toEqual(records);

    // A record keeps the step it ran: deleted from the draft, it is still the version's.
    expect((await instance.request('DELETE', `/steps/${stepIds[3]}`, { token })).status).toBe(204);
    const after = (await instance.request('GET', `/executions/${listed.id}/execution-steps`, { token })).body.data;
    expect(after.map((r: any) => r.step?.id ?? null)).toEqual(stepIds);
    expect(after[3]).toMatchObject({ stepId: stepIds[3], status: 'success', step: { id: stepIds[3] } });
  });

  it('keeps an unpublished flow’s webhook calls as test data, for testing steps', async () => {
    const { flowId, stepIds } = await webhookToStore();
    expect(
      (
        await instance.conveyor.app.request(`/webhooks/flows/${flowId}?source=test`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'grace', vip: 'yes' }),
        })
      ).status,
    ).toBe(204);
    const recorded = await executions(`?flowId=${flowId}`);
    expect(recorded.data).toHaveLength(1);
    expect(recorded.data[0]).toMatchObject({ testRun: true, status: 'success' });

    const tested = await instance.request('POST', `/steps/${stepIds[1]}/test`, { token });
    expect(tested.status).toBe(200);
    expect(tested.body.data).toMatchObject({ id: stepIds[1], status: 'completed' });
    expect(tested.body.data.lastExecutionStep).toMatchObject({ status: 'success', dataOut: { output: 'GRACE' } });

    const previous = await instance.request('GET', `/steps/${stepIds[2]}/previous-steps`, { token });
    expect(previous.body.data[0].lastExecutionStep.dataOut).toMatchObject({ query: { source: 'test' } });
    expect(previous.body.data[1].lastExecutionStep.dataOut).toEqual({ output: 'GRACE' });
  });

  it('answers Automatisch’s Test & Continue and Continue buttons with the step and its last output', async () => {
    const { flowId, stepIds, call } = await webhookToStore();
    const [trigger = '', action = '', filter = ''] = stepIds;
    const press = (stepId: string, button: string) => instance.request('POST', `/steps/${stepId}/${button}`, { token });

    // Nothing caught yet: /test refuses, Test & Continue answers the step without output.
    expect((await press(action, 'test')).status).toBe(422);
    const early = await press(action, 'test-and-continue');
    expect(early.status).toBe(200);
    expect(early.body.meta).toMatchObject({ type: 'Step', isArray: false });
    expect(early.body.data).toMatchObject({ id: action, appKey: 'formatter', key: 'text', lastExecutionStep: null });

    const hook = await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'grace', vip: 'yes' }),
    });
    expect(hook.status).toBe(204);
    const tested = await press(action, 'test-and-continue');
    expect(tested.status).toBe(200);
    expect(tested.body.data).toMatchObject({ id: action, status: 'completed', position: 2, type: 'action' });
    expect(tested.body.data.lastExecutionStep).toMatchObject({
      stepId: action,
      status: 'success',
      dataOut: { output: 'GRACE' },
      errorDetails: null,
    });

    // Continue runs nothing: the step as it stands, with the output of its last run, if any.
    const continued = await press(action, 'continue-without-test');
    expect(continued.status).toBe(200);
    expect(continued.body.data).toMatchObject({ id: action, status: 'completed' });
    expect(continued.body.data.lastExecutionStep).toEqual(tested.body.data.lastExecutionStep);
    const untested = await press(filter, 'continue-without-test');
    expect(untested.body.data).toMatchObject({ id: filter, status: 'completed', lastExecutionStep: null });

    // A failing step is an answer too: its output is the failure.
    await call('PATCH', `/steps/${action}`, { parameters: { transform: 'parseStringifiedJson', input: 'not json' } });
    const failed = await press(action, 'test-and-continue');
    expect(failed.status).toBe(200);
    expect(failed.body.data.lastExecutionStep).toMatchObject({ status: 'failure', errorDetails: expect.anything() });

    await call('PATCH', `/steps/${action}`, { parameters: {} });
    expect((await press(action, 'continue-without-test')).body.data.status).toBe('incomplete');
    expect((await press(trigger, 'test-and-continue')).body.data.lastExecutionStep).toMatchObject({
      stepId: trigger,
      status: 'success',
    });
  });

  it('keeps every value of a repeated query parameter or form field, as an array, as Express does', async () => {
    const { flowId, stepIds } = await webhookToStore();
    const caught = async (path: string, init: RequestInit = {}) => {
      expect((await instance.conveyor.app.request(path, { method: 'POST', ...init })).status).toBe(204);
      const [latest] = (await executions(`?flowId=${flowId}`)).data;
      const run = await instance.request('GET', `/executions/${latest.id}`, { token });
      return run.body.data.steps.find((s: { stepId: string }) => s.stepId === stepIds[0]).dataOut;
    };
    const query = await caught(`/webhooks/flows/${flowId}?tag=a&tag=b&one=1&tag=c&empty=`);
    expect(query.query).toEqual({ tag: ['a', 'b', 'c'], one: '1', empty: '' });
    const form = await caught(`/webhooks/flows/${flowId}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'item=x&item=y&name=ada',
    });
    expect(form.body).toEqual({ item: ['x', 'y'], name: 'ada' });
  });

  it('answers /sync webhooks with the flow’s response, 422 when filtered', async () => {
    const { flowId, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: { workSynchronously: true } },
      [
        ([trigger]) => ({
          appKey: 'filter',
          key: 'continueIfMatches',
          parameters: { or: [{ and: [{ key: ref(trigger as string, 'query.ok'), operator: 'equal', value: '1' }] }] },
        }),
        ([trigger]) => ({
          appKey: 'webhook',
          key: 'respondWith',
          parameters: {
            statusCode: 201,
            headers: [{ key: 'x-flow', value: 'yes' }],
            body: `{"hello": "${ref(trigger as string, 'query.name')}"}`,
          },
        }),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    const answered = await instance.conveyor.app.request(`/webhooks/flows/${flowId}/sync?ok=1&name=ada`);
    expect(answered.status).toBe(201);
    expect(answered.headers.get('x-flow')).toBe('yes');
    expect(await answered.json()).toEqual({ hello: 'ada' });

    const filtered = await instance.conveyor.app.request(`/webhooks/flows/${flowId}/sync?ok=0`);
    expect(filtered.status).toBe(422);
    expect(((await filtered.json()) as { meta: { type: string } }).meta.type).toBe('FilteredError');
  });

  it('runs user code in the sandbox and hands its output to the next step', async () => {
    const { flowId, stepIds, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [
        ([trigger]) => ({
          appKey: 'code',
          key: 'runJavascript',
          parameters: {
            inputs: [{ key: 'items', value: ref(trigger as string, 'body.items') }],
            codeSnippet:
              'const code = async (inputs) => JSON.parse(inputs.items).reduce((sum, i) => sum + i.price * i.qty, 0);',
          },
        }),
        ([, total]) => ({
          appKey: 'datastore',
          key: 'setValue',
          parameters: { key: 'total', value: ref(total as string, 'output') },
        }),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [
          { price: 2.5, qty: 2 },
          { price: 10, qty: 1 },
        ],
      }),
    });
    const [run] = await eventually(
      () => executions(`?flowId=${flowId}`),
      (body) => body.data[0]?.status === 'success',
    ).then((body) => body.data);
    const steps = (await instance.request('GET', `/executions/${run.id}`, { token })).body.data.steps;
    expect(steps.map((s: { stepId: string }) => s.stepId)).toEqual(stepIds);
    expect(steps[1].dataOut).toEqual({ output: 15 });
    expect(steps[2].dataOut).toEqual({ key: 'total', value: '15' });
  });

  it('refuses unknown flows and flows without a webhook trigger', async () => {
    const missing = await instance.conveyor.app.request('/webhooks/flows/00000000-0000-4000-8000-000000000000', {
      method: 'POST',
    });
    expect(missing.status).toBe(404);
    expect((await instance.conveyor.app.request('/webhooks/flows/not-a-uuid')).status).toBe(404);
    const { flowId } = await buildFlow(instance, token, { appKey: 'scheduler', key: 'everyHour', parameters: {} }, [
      () => ({ appKey: 'datastore', key: 'getValue', parameters: { key: 'x' } }),
    ]);
    expect((await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, { method: 'POST' })).status).toBe(404);
  });
});

describe.each(DIALECTS)('failures and retries (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect, { ALLOW_PRIVATE_NETWORKS: 'true' });
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const send = (flowId: string, body: unknown) => sendWebhook(instance, flowId, body);
  const finished = (flowId: string, count = 1) => finishedRuns(instance, token, flowId, count);

  it('fails the run at the failing step with its error, and retries it from there once fixed', async () => {
    const { flowId, stepIds, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [
        ([trigger]) => ({
          appKey: 'datastore',
          key: 'setValue',
          parameters: { key: 'seen', value: ref(trigger as string, 'body.payload') },
        }),
        ([trigger]) => ({
          appKey: 'formatter',
          key: 'text',
          parameters: { transform: 'parseStringifiedJson', input: ref(trigger as string, 'body.payload') },
        }),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await send(flowId, { payload: 'not json' });
    const [failed] = await finished(flowId);
    expect(failed.status).toBe('failure');
    const detail = (await instance.request('GET', `/executions/${failed.id}`, { token })).body.data;
    expect(detail.steps.map((s: { status: string }) => s.status)).toEqual(['success', 'success', 'failure']);
    expect(detail.steps[2].errorDetails.message).toMatch(/not valid JSON/);
    expect(detail.finishedAt).not.toBeNull();

    // Retrying a run that did not fail is refused; so is one of a flow the caller cannot see.
    const [, setValueStep] = detail.steps;
    expect(setValueStep.dataOut).toEqual({ key: 'seen', value: 'not json' });

    // Fix the step in the draft and publish it (version 2); the failed run ran version 1.
    expect(failed.flowVersion).toMatchObject({ number: 1 });
    await call('PATCH', `/steps/${stepIds[2]}`, {
      parameters: { transform: 'uppercase', input: ref(stepIds[0] as string, 'body.payload') },
    });
    await call('PATCH', `/flows/${flowId}/status`, { active: true });

    // By default a retry runs the version the run ran: it fails the same way.
    const same = await instance.request('POST', `/executions/${failed.id}/retry`, { token });
    expect(same.status).toBe(201);
    expect(same.body.data).toMatchObject({ retryOf: failed.id, flowVersion: failed.flowVersion });
    const sameRun = (await finished(flowId, 2)).find((r: { id: string }) => r.id === same.body.data.id);
    expect(sameRun.status).toBe('failure');

    const badChoice = await instance.request('POST', `/executions/${failed.id}/retry`, {
      token,
      body: { version: 'newest' },
    });
    expect(badChoice.status).toBe(422);
    expect(badChoice.body.errors).toEqual({ version: ['must be original or current.'] });

    const retried = await instance.request('POST', `/executions/${failed.id}/retry`, {
      token,
      body: { version: 'current' },
    });
    expect(retried.status).toBe(201);
    expect(retried.body.data).toMatchObject({ retryOf: failed.id, flowId, flowVersion: { number: 2 } });
    const rows = await finished(flowId, 3);
    const again = rows.find((r: { id: string }) => r.id === retried.body.data.id);
    expect(again.status).toBe('success');
    const steps = (await instance.request('GET', `/executions/${again.id}`, { token })).body.data.steps;
    expect(steps.map((s: { stepId: string }) => s.stepId)).toEqual(stepIds);
    // The steps that had succeeded were carried over, not run again.
    expect(steps[1].createdAt).toBe(setValueStep.createdAt);
    expect(steps[2].dataOut).toEqual({ output: 'NOT JSON' });

    const notFailed = await instance.request('POST', `/executions/${again.id}/retry`, { token });
    expect(notFailed.status).toBe(422);
  });

  it('goes on past a step that may fail, recording its failure', async () => {
    const { flowId, stepIds, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [
        ([trigger]) => ({
          appKey: 'formatter',
          key: 'text',
          parameters: { transform: 'parseStringifiedJson', input: ref(trigger as string, 'body.payload') },
          continueOnFailure: true,
        }),
        () => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'after', value: 'still ran' } }),
      ],
    );
    const step = await call('GET', `/flows/${flowId}`);
    expect(step.steps[1].continueOnFailure).toBe(true);
    expect(step.steps[2].continueOnFailure).toBe(false);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await send(flowId, { payload: 'not json' });
    const [run] = await finished(flowId);
    expect(run.status).toBe('success');
    const steps = (await instance.request('GET', `/executions/${run.id}`, { token })).body.data.steps;
    expect(steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status])).toEqual([
      [stepIds[0], 'success'],
      [stepIds[1], 'failure'],
      [stepIds[2], 'success'],
    ]);
    expect(steps[1].errorDetails.message).toMatch(/not valid JSON/);
    const refused = await instance.request('PATCH', `/steps/${stepIds[2]}`, {
      token,
      body: { continueOnFailure: 'yes' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.continueOnFailure).toEqual(['must be a boolean.']);
  });

  it('waits and tries again later when a step fails for a passing reason', async () => {
    const { flowId, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      // Nothing listens on port 9 of loopback: a network failure, worth retrying.
      [
        () => ({
          appKey: 'http-request',
          key: 'customRequest',
          parameters: { method: 'GET', url: 'http://127.0.0.1:9/' },
        }),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await send(flowId, {});
    const [waiting] = await eventually(
      async (): Promise<any[]> => (await instance.request('GET', `/executions?flowId=${flowId}`, { token })).body.data,
      (rows) => rows[0]?.status === 'waiting',
    );
    expect(waiting.resumeAt).toBeGreaterThanOrEqual(waiting.updatedAt);
    const steps = (await instance.request('GET', `/executions/${waiting.id}`, { token })).body.data.steps;
    // Only the trigger is recorded: the failed attempt leaves no record until the step gives up.
    expect(steps).toHaveLength(1);
  });
});
