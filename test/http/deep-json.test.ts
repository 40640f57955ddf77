import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow } from '../support/engine-flows.js';
import { FLOW_TEST_APPS } from '../support/flow-apps.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/** `{"a":[{"a":[ … 1 … ]}]}`, `depth` levels of arrays and objects. */
const deep = (depth: number) => `${'{"a":['.repeat(depth / 2)}1${']}'.repeat(depth / 2)}`;

/**
 * Found by the fuzz suite: JSON nested some 3,000 levels deep fits in a 1 MiB body and parses, but
 * storing it (JSON.stringify recurses) overflowed the stack: a 500. It is refused as it is read.
 */
describe.each(DIALECTS)('deeply nested JSON bodies (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  let flowId: string;
  let stepId: string;
  beforeAll(async () => {
    instance = await startTestInstance(dialect, {}, { apps: FLOW_TEST_APPS });
    token = await installAndSignIn(instance);
    const built = await buildFlow(instance, token, { appKey: 'test-webhook', key: 'catchRawWebhook' }, []);
    flowId = built.flowId;
    stepId = built.flow.steps[1].id;
  });
  afterAll(() => instance.close());

  it('is a 400 on an API route, and a shallower one is stored', async () => {
    const refused = await instance.request('PATCH', `/steps/${stepId}`, {
      token,
      body: `{"parameters":{"x":${deep(4000)}}}`,
    });
    expect({ status: refused.status, type: refused.body.meta.type }).toEqual({ status: 400, type: 'BadRequestError' });
    const stored = await instance.request('PATCH', `/steps/${stepId}`, {
      token,
      body: `{"parameters":{"x":${deep(100)}}}`,
    });
    expect(stored.status).toBe(200);
  });

  it("is a 400 at a flow's webhook, which keeps an unpublished flow's call as test data", async () => {
    const send = (body: string) =>
      instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect((await send(deep(4000))).status).toBe(400);
    expect((await send(deep(100))).status).toBe(204);
  });
});
