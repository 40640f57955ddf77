import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { executionDetail } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/**
 * Issue 20, over HTTP on both databases: published flows with paths and loops run as trees. A sync
 * webhook answers by the branch its run took (or the fallback); a loop's results come back whole.
 */
describe.each(DIALECTS)('flows that branch and loop (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect);
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await instance.request(method, path, { token, ...(body !== undefined && { body }) });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body?.data;
  };
  const stepsOf = async (flowId: string): Promise<any[]> => (await call('GET', `/flows/${flowId}`)).steps;
  const respond = (body: string) => ({
    appKey: 'webhook',
    key: 'respondWith',
    parameters: { statusCode: 200, headers: [{ key: 'Content-Type', value: 'text/plain' }], body },
  });
  const sync = async (flowId: string, payload: unknown) => {
    const res = await instance.conveyor.app.request(`/webhooks/flows/${flowId}/sync`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    return { status: res.status, text: await res.text() };
  };

  /** A sync webhook flow whose trigger's first action is replaced by a structure; the trigger's id. */
  const syncFlow = async () => {
    const flow = await call('POST', '/flows');
    const [trigger, first] = flow.steps;
    await call('PATCH', `/steps/${trigger.id}`, {
      appKey: 'webhook',
      key: 'catchRawWebhook',
      parameters: { workSynchronously: true },
    });
    return { flowId: flow.id as string, triggerId: trigger.id as string, firstId: first.id as string };
  };

  it('answers a sync call by the branch its conditions chose, the fallback when none holds', async () => {
    const { flowId, triggerId, firstId } = await syncFlow();
    const paths = await call('POST', `/flows/${flowId}/steps`, { previousStepId: triggerId, structuralType: 'paths' });
    await call('DELETE', `/steps/${firstId}`);
    let steps = await stepsOf(flowId);
    const [big, otherwise] = steps.filter((s) => s.parentStepId === paths.id);
    await call('PATCH', `/steps/${big.id}`, {
      name: 'Big order',
      branchConditions: [
        { and: [{ key: `{{step.${triggerId}.body.total}}`, operator: 'greater_than', value: '100' }] },
      ],
    });
    // A third branch, between them: orders of exactly 100.
    const exact = await call('POST', `/flows/${flowId}/steps`, { previousStepId: big.id, parentStepId: paths.id });
    await call('PATCH', `/steps/${exact.id}`, {
      name: 'Exactly 100',
      branchConditions: [{ and: [{ key: `{{step.${triggerId}.body.total}}`, operator: 'equal', value: '100' }] }],
    });
    steps = await stepsOf(flowId);
    const inside = (branchId: string) => steps.find((s) => s.parentStepId === branchId).id;
    await call('PATCH', `/steps/${inside(big.id)}`, respond(`big {{step.${triggerId}.body.total}}`));
    await call('PATCH', `/steps/${inside(exact.id)}`, respond('exactly a hundred'));
    await call('PATCH', `/steps/${inside(otherwise.id)}`, respond('small'));
    await call('PATCH', `/flows/${flowId}/status`, { active: true });

    expect(await sync(flowId, { total: 250 })).toEqual({ status: 200, text: 'big 250' });
    expect(await sync(flowId, { total: 100 })).toEqual({ status: 200, text: 'exactly a hundred' });
    expect(await sync(flowId, { total: 5 })).toEqual({ status: 200, text: 'small' });

    // The run says which branch it took, and each record where it ran.
    const runs = (await call('GET', `/executions?flowId=${flowId}`)) as any[];
    const last = await executionDetail(instance, token, runs[0].id);
    const pathsRecord = last.steps.find((s: any) => s.stepId === paths.id);
    expect(pathsRecord.dataOut).toEqual({ mode: 'first', taken: [{ id: otherwise.id, name: 'Otherwise' }] });
    expect(last.steps.find((s: any) => s.stepId === inside(otherwise.id))).toMatchObject({
      parentStepId: otherwise.id,
      branchId: otherwise.id,
      iteration: null,
      scope: '',
    });
  });

  it('runs a loop’s steps once per item and hands their results to the steps after it', async () => {
    const { flowId, triggerId, firstId } = await syncFlow();
    const loop = await call('POST', `/flows/${flowId}/steps`, { previousStepId: triggerId, structuralType: 'loop' });
    await call('PATCH', `/steps/${loop.id}`, { parameters: { items: `{{step.${triggerId}.body.names}}` } });
    const body = (await stepsOf(flowId)).find((s) => s.parentStepId === loop.id);
    await call('PATCH', `/steps/${body.id}`, {
      appKey: 'formatter',
      key: 'text',
      parameters: { transform: 'uppercase', input: `{{step.${loop.id}.index}}:{{step.${loop.id}.item}}` },
    });
    // The first action, moved after the loop, answers with the loop's results.
    await call('POST', `/steps/${firstId}/move`, { previousStepId: loop.id });
    await call('PATCH', `/steps/${firstId}`, respond(`{{step.${loop.id}.results}}`));
    await call('PATCH', `/flows/${flowId}/status`, { active: true });

    const answer = await sync(flowId, { names: ['ada', 'alan', 'grace'] });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual([{ output: '0:ADA' }, { output: '1:ALAN' }, { output: '2:GRACE' }]);

    const [run] = (await call('GET', `/executions?flowId=${flowId}`)) as any[];
    const detail = await executionDetail(instance, token, run.id);
    const iterations = detail.steps.filter((s: any) => s.stepId === body.id);
    expect(iterations.map((s: any) => [s.iteration, s.scope, s.dataOut])).toEqual([
      [0, `${loop.id}:0`, { output: '0:ADA' }],
      [1, `${loop.id}:1`, { output: '1:ALAN' }],
      [2, `${loop.id}:2`, { output: '2:GRACE' }],
    ]);

    // An empty list runs the body no time; a list over the loop's limit fails the run, naming it.
    expect(JSON.parse((await sync(flowId, { names: [] })).text)).toEqual([]);
    await call('PATCH', `/steps/${loop.id}`, {
      parameters: { items: `{{step.${triggerId}.body.names}}`, maxItems: 2 },
    });
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    expect((await sync(flowId, { names: ['a', 'b', 'c'] })).status).toBe(422);
  });

  it('tests a step inside a loop on the first item only', async () => {
    const { flowId, triggerId, firstId } = await syncFlow();
    const loop = await call('POST', `/flows/${flowId}/steps`, { previousStepId: triggerId, structuralType: 'loop' });
    await call('PATCH', `/steps/${loop.id}`, { parameters: { items: `{{step.${triggerId}.body.names}}` } });
    const body = (await stepsOf(flowId)).find((s) => s.parentStepId === loop.id);
    await call('PATCH', `/steps/${body.id}`, {
      appKey: 'formatter',
      key: 'text',
      parameters: { transform: 'uppercase', input: `{{step.${loop.id}.item}}` },
    });
    await call('DELETE', `/steps/${firstId}`);
    // The editor's test data: a call of the unpublished flow.
    await sync(flowId, { names: ['ada', 'alan'] });
    const tested = await call('POST', `/steps/${body.id}/test`);
    expect(tested.lastExecutionStep).toMatchObject({ dataOut: { output: 'ADA' }, iteration: 0 });
    const run = await executionDetail(instance, token, tested.lastExecutionStep.executionId);
    expect(run.steps.filter((s: any) => s.stepId === body.id)).toHaveLength(1);
  });
});
