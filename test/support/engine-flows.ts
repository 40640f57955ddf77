import { expect } from 'vitest';
import type { TestInstance } from './http.js';

/** A parameter's reference to an earlier step's output, as the editor writes it. */
export const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;

export interface StepSpec {
  readonly appKey: string;
  readonly key: string;
  readonly parameters?: Record<string, unknown>;
  readonly connectionId?: string;
  readonly continueOnFailure?: boolean;
}

/**
 * Builds a flow over HTTP alone, as a user would: a trigger and actions set step by step. The
 * step ids come back so that later parameters can refer to earlier outputs.
 */
export const buildFlow = async (
  instance: TestInstance,
  token: string,
  trigger: StepSpec,
  actions: readonly ((ids: readonly string[]) => StepSpec)[],
) => {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await instance.request(method, path, { token, ...(body !== undefined && { body }) });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body?.data;
  };
  const flow = await call('POST', '/flows');
  const ids: string[] = [flow.steps[0].id];
  await call('PATCH', `/steps/${ids[0]}`, trigger);
  let previous = ids[0] as string;
  for (const [index, action] of actions.entries()) {
    const stepId =
      index === 0 ? flow.steps[1].id : (await call('POST', `/flows/${flow.id}/steps`, { previousStepId: previous })).id;
    await call('PATCH', `/steps/${stepId}`, action(ids));
    ids.push(stepId);
    previous = stepId;
  }
  const stored = await call('GET', `/flows/${flow.id}`);
  return { flowId: flow.id as string, stepIds: ids, flow: stored, call };
};

/** Polls until `check` holds (runs finish in the background). */
export const eventually = async <T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** Calls a flow's webhook as an outside service would; an unpublished flow keeps the call as test data. */
export const sendWebhook = async (instance: TestInstance, flowId: string, body: unknown) => {
  const res = await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, `webhook of flow ${flowId}`).toBe(204);
};

export const isFinished = (execution: { status: string }) =>
  execution.status === 'success' || execution.status === 'failure';

/** The flow's runs, newest first, once there are `count` of them and all have finished. */
export const finishedRuns = (instance: TestInstance, token: string, flowId: string, count = 1): Promise<any[]> =>
  eventually(
    async (): Promise<any[]> => (await instance.request('GET', `/executions?flowId=${flowId}`, { token })).body.data,
    (runs) => runs.length === count && runs.every(isFinished),
  );

/** An execution with its steps, as `GET /executions/:id` shows it. */
export const executionDetail = async (instance: TestInstance, token: string, executionId: string): Promise<any> => {
  const res = await instance.request('GET', `/executions/${executionId}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

/** The flow's first real (not test) run, once it has finished, with its steps. */
export const finishedRun = async (instance: TestInstance, token: string, flowId: string): Promise<any> => {
  const [run] = await eventually(
    async (): Promise<any[]> =>
      (await instance.request('GET', `/executions?flowId=${flowId}&perPage=100`, { token })).body.data.filter(
        (e: { testRun: boolean }) => !e.testRun,
      ),
    (runs) => runs.length === 1 && isFinished(runs[0]),
  );
  return executionDetail(instance, token, run.id);
};

/**
 * Retries a failed run with `POST /executions/:id/retry` and waits for the new run to finish. The
 * steps that had succeeded must come over unchanged: same record time, same output.
 */
export const retryRun = async (instance: TestInstance, token: string, failed: any): Promise<any> => {
  const res = await instance.request('POST', `/executions/${failed.id}/retry`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data).toMatchObject({ retryOf: failed.id, flowId: failed.flowId, testRun: false });
  const retried = await eventually<any>(() => executionDetail(instance, token, res.body.data.id), isFinished);
  const succeeded = failed.steps.filter((s: { status: string }) => s.status === 'success');
  expect(retried.steps.slice(0, succeeded.length).map(carried)).toEqual(succeeded.map(carried));
  return retried;
};

const carried = (step: { stepId: string; status: string; dataIn: unknown; dataOut: unknown; createdAt: number }) => ({
  stepId: step.stepId,
  status: step.status,
  dataIn: step.dataIn,
  dataOut: step.dataOut,
  createdAt: step.createdAt,
});
