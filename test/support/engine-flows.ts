import { expect } from 'vitest';
import type { TestInstance } from './http.js';

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
