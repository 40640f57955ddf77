import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  buildFlow,
  eventually,
  executionDetail,
  finishedRuns,
  isFinished,
  ref,
  sendWebhook,
} from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/** An HTTP sink on loopback that counts the requests each path gets: proof of which steps ran. */
let sink: Server;
let sinkUrl: string;
const hits = new Map<string, number>();
beforeAll(async () => {
  sink = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => sink.close(() => resolve())));

describe.each(DIALECTS)('searching runs, re-running from a step, a flow’s datastore (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect, { ALLOW_PRIVATE_NETWORKS: 'true' });
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const get = async (path: string) => instance.request('GET', path, { token });
  const runsOf = (flowId: string, count: number) => finishedRuns(instance, token, flowId, count);

  it('finds runs by the text of their records, and by the version they ran', async () => {
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
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await sendWebhook(instance, flowId, { name: 'Ada Lovelace' });
    await sendWebhook(instance, flowId, { name: 'Grace 50%_off' });
    await runsOf(flowId, 2);
    // Version 2 lower-cases: a third run on it.
    await call('PATCH', `/steps/${stepIds[1]}`, {
      parameters: { transform: 'lowercase', input: ref(stepIds[0] as string, 'body.name') },
    });
    await call('POST', `/flows/${flowId}/versions`, {});
    await sendWebhook(instance, flowId, { name: 'Alan Turing' });
    const all = await runsOf(flowId, 3);
    const names = async (query: string) =>
      Promise.all(
        ((await get(`/executions?flowId=${flowId}&${query}`)).body.data as any[]).map(
          async (e) => (await executionDetail(instance, token, e.id)).steps[0].dataOut.body.name,
        ),
      );

    // Case-insensitive, in an input or an output ("ADA LOVELACE" is the formatter's output).
    expect(await names('q=lovelace')).toEqual(['Ada Lovelace']);
    expect(await names('q=ALAN%20TURING')).toEqual(['Alan Turing']);
    // `%` and `_` are plain characters, not patterns.
    expect(await names('q=50%25_')).toEqual(['Grace 50%_off']);
    expect(await names(`q=${encodeURIComponent('%')}`)).toEqual(['Grace 50%_off']);
    expect(await names('q=nobody')).toEqual([]);
    const counted = await get(`/executions?flowId=${flowId}&q=a`);
    expect(counted.body.meta).toMatchObject({ count: 3 });

    expect(await names('flowVersion=2')).toEqual(['Alan Turing']);
    expect((await names('flowVersion=1')).sort()).toEqual(['Ada Lovelace', 'Grace 50%_off']);
    expect(await names('flowVersion=1&q=grace')).toEqual(['Grace 50%_off']);
    expect(all.map((e) => e.flowVersion.number).sort()).toEqual([1, 1, 2]);

    for (const [query, field, message] of [
      ['q=', 'q', 'must not be empty.'],
      [`q=${'x'.repeat(101)}`, 'q', 'must be at most 100 characters.'],
      ['q=%00', 'q', 'must not hold control characters.'],
      ['flowVersion=0', 'flowVersion', 'must be a version number (1 or more).'],
      ['flowVersion=two', 'flowVersion', 'must be a version number (1 or more).'],
    ] as const) {
      const refused = await get(`/executions?${query}`);
      expect(refused.status, query).toBe(422);
      expect(refused.body.errors[field], query).toEqual([message]);
    }
  });

  it('re-runs a finished run from a chosen step: the steps before it are not run again', async () => {
    const path = `/rerun-${dialect}-${Date.now()}`;
    const post = (where: string) => ({
      appKey: 'http-request',
      key: 'customRequest',
      parameters: { method: 'POST', url: `${sinkUrl}${path}/${where}`, data: '{"n":1}' },
    });
    const { flowId, stepIds, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [
        () => post('before'),
        ([trigger]) => ({
          appKey: 'formatter',
          key: 'text',
          parameters: { transform: 'uppercase', input: ref(trigger as string, 'body.name') },
        }),
        () => post('after'),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await sendWebhook(instance, flowId, { name: 'ada' });
    const [run] = await runsOf(flowId, 1);
    expect(run.status).toBe('success');
    const original = await executionDetail(instance, token, run.id);
    expect([hits.get(`${path}/before`), hits.get(`${path}/after`)]).toEqual([1, 1]);

    const rerun = await instance.request('POST', `/executions/${run.id}/retry`, {
      token,
      body: { fromStepId: stepIds[2] },
    });
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(201);
    expect(rerun.body.data).toMatchObject({ retryOf: run.id, flowVersion: run.flowVersion });
    const again = await eventually<any>(() => executionDetail(instance, token, rerun.body.data.id), isFinished);
    expect(again.status).toBe('success');
    expect(again.steps.map((s: any) => s.stepId)).toEqual(stepIds);
    // The trigger and the first request are the original's records, carried over.
    const carried = (s: any) => [s.stepId, s.createdAt, s.dataOut];
    expect(again.steps.slice(0, 2).map(carried)).toEqual(original.steps.slice(0, 2).map(carried));
    // The chosen step and the one after it ran again; the request before them did not.
    expect(again.steps[2].createdAt).toBeGreaterThanOrEqual(original.steps[3].createdAt);
    expect(again.steps[2].dataOut).toEqual({ output: 'ADA' });
    expect([hits.get(`${path}/before`), hits.get(`${path}/after`)]).toEqual([1, 2]);

    const refusal = async (body: unknown) => {
      const res = await instance.request('POST', `/executions/${run.id}/retry`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      return res.body.errors;
    };
    expect(await refusal({ fromStepId: stepIds[0] })).toEqual({
      fromStepId: ["is the trigger: its record is the run's data. Choose an action."],
    });
    expect(await refusal({ fromStepId: '00000000-0000-4000-8000-000000000000' })).toEqual({
      fromStepId: ['is not a step of the version this execution ran.'],
    });
    expect(await refusal({ fromStepId: 'nope' })).toEqual({ fromStepId: ['must be a UUID.'] });
    expect(await refusal({ fromStepId: stepIds[2], version: 'current' })).toEqual({
      version: ['A re-run from a step runs on the version the run ran.'],
    });
  });

  it('re-runs from a step inside a branch that ran; refuses a branch not taken and a loop’s iterations', async () => {
    const flow = await (await instance.request('POST', '/flows', { token })).body.data;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await instance.request(method, path, { token, ...(body !== undefined && { body }) });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body?.data;
    };
    const [trigger, first] = flow.steps;
    await call('PATCH', `/steps/${trigger.id}`, { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} });
    const paths = await call('POST', `/flows/${flow.id}/steps`, {
      previousStepId: trigger.id,
      structuralType: 'paths',
    });
    await call('DELETE', `/steps/${first.id}`);
    let steps: any[] = (await call('GET', `/flows/${flow.id}`)).steps;
    const [vip, otherwise] = steps.filter((s) => s.parentStepId === paths.id);
    await call('PATCH', `/steps/${vip.id}`, {
      branchConditions: [{ and: [{ key: ref(trigger.id, 'body.kind'), operator: 'equal', value: 'vip' }] }],
    });
    const upper = (input: string) => ({
      appKey: 'formatter',
      key: 'text',
      parameters: { transform: 'uppercase', input },
    });
    steps = (await call('GET', `/flows/${flow.id}`)).steps;
    const inside = (parentId: string) => steps.find((s) => s.parentStepId === parentId).id as string;
    const inVip = inside(vip.id);
    const inOtherwise = inside(otherwise.id);
    await call('PATCH', `/steps/${inVip}`, upper(ref(trigger.id, 'body.kind')));
    await call('PATCH', `/steps/${inOtherwise}`, upper('other'));
    const loop = await call('POST', `/flows/${flow.id}/steps`, { previousStepId: paths.id, structuralType: 'loop' });
    await call('PATCH', `/steps/${loop.id}`, { parameters: { items: ref(trigger.id, 'body.names') } });
    steps = (await call('GET', `/flows/${flow.id}`)).steps;
    const inLoop = inside(loop.id);
    await call('PATCH', `/steps/${inLoop}`, upper(ref(loop.id, 'item')));
    await call('PATCH', `/flows/${flow.id}/status`, { active: true });
    await sendWebhook(instance, flow.id, { kind: 'vip', names: ['ada', 'grace'] });
    const [run] = await runsOf(flow.id, 1);
    expect(run.status).toBe('success');

    const refused = async (stepId: string) => {
      const res = await instance.request('POST', `/executions/${run.id}/retry`, {
        token,
        body: { fromStepId: stepId },
      });
      expect(res.status).toBe(422);
      return res.body.errors.fromStepId;
    };
    expect(await refused(inOtherwise)).toEqual([
      'did not run in this execution (a branch that was not taken, or after the run ended).',
    ]);
    expect(await refused(inLoop)).toEqual(["runs inside a loop's iterations: re-run from the loop step instead."]);

    const fromBranch = await instance.request('POST', `/executions/${run.id}/retry`, {
      token,
      body: { fromStepId: inVip },
    });
    expect(fromBranch.status).toBe(201);
    const again = await eventually<any>(() => executionDetail(instance, token, fromBranch.body.data.id), isFinished);
    expect(again.status).toBe('success');
    const original = await executionDetail(instance, token, run.id);
    const place = (s: any) => [s.stepId, s.scope, s.dataOut];
    expect(again.steps.map(place)).toEqual(original.steps.map(place));
    // The paths step's choice was carried over; the branch's step and the loop ran again.
    const at = (detail: any, stepId: string) => detail.steps.find((s: any) => s.stepId === stepId).createdAt;
    expect(at(again, paths.id)).toBe(at(original, paths.id));
    expect(at(again, inVip)).toBeGreaterThanOrEqual(at(original, inLoop));
  });

  it('lists, searches and deletes the keys the datastore app keeps for a flow', async () => {
    const { flowId, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [
        ([trigger]) => ({
          appKey: 'datastore',
          key: 'setValue',
          parameters: { key: ref(trigger as string, 'body.key'), value: ref(trigger as string, 'body.value') },
        }),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    for (const [key, value] of [
      ['customer/ada', 'Ada Lovelace'],
      ['customer/grace', 'Grace Hopper'],
      ['counter', '42'],
    ]) {
      await sendWebhook(instance, flowId, { key, value });
    }
    await runsOf(flowId, 3);

    const list = await get(`/flows/${flowId}/datastore`);
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ type: 'DatastoreEntry', count: 3, currentPage: 1 });
    expect(list.body.data.map((e: any) => [e.key, e.value])).toEqual([
      ['counter', '42'],
      ['customer/ada', 'Ada Lovelace'],
      ['customer/grace', 'Grace Hopper'],
    ]);
    expect(typeof list.body.data[0].updatedAt).toBe('number');
    // Search in keys and values, case-insensitively; pages.
    const keys = async (query: string) =>
      ((await get(`/flows/${flowId}/datastore?${query}`)).body.data as any[]).map((e) => e.key);
    expect(await keys('q=CUSTOMER')).toEqual(['customer/ada', 'customer/grace']);
    expect(await keys('q=hopper')).toEqual(['customer/grace']);
    expect(await keys('perPage=2&page=2')).toEqual(['customer/grace']);
    expect((await get(`/flows/${flowId}/datastore?q=`)).status).toBe(422);

    const deleted = await instance.request(
      'DELETE',
      `/flows/${flowId}/datastore/${encodeURIComponent('customer/ada')}`,
      {
        token,
      },
    );
    expect(deleted.status).toBe(204);
    expect(await keys('')).toEqual(['counter', 'customer/grace']);
    const again = await instance.request('DELETE', `/flows/${flowId}/datastore/${encodeURIComponent('customer/ada')}`, {
      token,
    });
    expect(again.status).toBe(404);
    // The engine's own values in the flow's store are not the datastore's: they are not shown.
    const other = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} }, []);
    expect((await get(`/flows/${other.flowId}/datastore`)).body.data).toEqual([]);
  });
});
