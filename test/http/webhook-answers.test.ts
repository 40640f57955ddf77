import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;
const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-modals';

/**
 * What `/webhooks/...` answers: the flow's "respond with" answer is served on the console's origin,
 * so it is sandboxed and cannot replace the server's security headers or set cookies; an answer
 * HTTP cannot carry is a step error, never a 500.
 */
describe.each(DIALECTS)('webhook answers (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect);
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  /** A published webhook → "respond with" flow; the answer's arguments may refer to the trigger. */
  const respondingFlow = async (answer: (trigger: string) => Record<string, unknown>, { publish = true } = {}) => {
    const built = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: { workSynchronously: true } },
      [([trigger]) => ({ appKey: 'webhook', key: 'respondWith', parameters: answer(trigger as string) })],
    );
    if (publish) await built.call('PATCH', `/flows/${built.flowId}/status`, { active: true });
    return built;
  };
  const sync = (flowId: string, query = '') => instance.conveyor.app.request(`/webhooks/flows/${flowId}/sync${query}`);

  it("sandboxes the flow's page, drops its cookies and keeps the server's security headers", async () => {
    const { flowId } = await respondingFlow(() => ({
      statusCode: 200,
      headers: [
        { key: 'Content-Type', value: 'text/html; charset=utf-8' },
        { key: 'Set-Cookie', value: 'conveyor_session=planted; Path=/api/v1' },
        { key: 'Content-Security-Policy', value: "default-src * 'unsafe-inline'" },
        { key: 'X-Frame-Options', value: 'ALLOWALL' },
        { key: 'X-Content-Type-Options', value: 'sniff' },
        { key: 'Cross-Origin-Opener-Policy', value: 'unsafe-none' },
        { key: 'Referrer-Policy', value: 'unsafe-url' },
        { key: 'Strict-Transport-Security', value: 'max-age=0' },
        { key: 'X-Flow', value: 'kept' },
      ],
      body: '<script>document.title = localStorage.length</script>',
    }));
    const page = await sync(flowId);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-flow')).toBe('kept');
    expect(page.headers.get('content-security-policy')).toBe(SANDBOX);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('strict-transport-security')).not.toBe('max-age=0');

    // Every other answer under /webhooks is sandboxed too: intake, errors, unknown paths.
    for (const [path, status] of [
      [`/webhooks/flows/${flowId}`, 204],
      ['/webhooks/flows/6f1f0000-0000-4000-8000-000000000000/sync', 404],
      ['/webhooks/flows/not-an-id', 404],
      ['/webhooks/elsewhere', 404],
    ] as const) {
      const res = await instance.conveyor.app.request(path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get('content-security-policy'), path).toBe(SANDBOX);
    }
    // The API itself is not sandboxed: the console runs there.
    expect((await instance.request('GET', '/service/info')).headers.get('content-security-policy')).toBeNull();
  });

  it('refuses header names, values and statuses HTTP cannot carry when the step is saved and tested', async () => {
    const { flowId, stepIds, call } = await respondingFlow(() => ({ statusCode: 200, body: 'fine' }), {
      publish: false,
    });
    const answer = stepIds[1] as string;
    // The request the trigger caught, for testing the step.
    expect((await instance.conveyor.app.request(`/webhooks/flows/${flowId}`)).status).toBe(204);
    const saved = async (parameters: Record<string, unknown>) =>
      (await call('PATCH', `/steps/${answer}`, { parameters })).status as string;

    expect(await saved({ statusCode: 201, headers: [{ key: 'X-Ok', value: 'yes' }], body: '{"a":1}' })).toBe(
      'completed',
    );
    expect(await saved({ statusCode: 204 })).toBe('completed');
    expect(await saved({ statusCode: 200, headers: [{ key: 'Bad Header', value: 'x' }] })).toBe('incomplete');
    expect(await saved({ statusCode: 200, headers: [{ key: 'X-Split', value: 'a\r\nSet-Cookie: x=1' }] })).toBe(
      'incomplete',
    );
    // (NUL is refused the same way; Postgres already refuses to store it, 422, as any NUL text.)
    expect(await saved({ statusCode: 200, headers: [{ key: 'X-Bell', value: 'a\u0007b' }] })).toBe('incomplete');
    expect(await saved({ statusCode: 101 })).toBe('incomplete');
    expect(await saved({ statusCode: 199 })).toBe('incomplete');
    expect(await saved({ statusCode: 600 })).toBe('incomplete');
    expect(await saved({ statusCode: 204, body: 'a body' })).toBe('incomplete');
    expect(await saved({ statusCode: 304, body: '{"a":1}' })).toBe('incomplete');

    // Testing the step says what is wrong, by argument.
    await saved({ statusCode: 101, headers: [{ key: 'Bad Header', value: 'x' }] });
    const tested = await instance.request('POST', `/steps/${answer}/test`, { token });
    expect(tested.status).toBe(200);
    const { errorDetails } = tested.body.data.lastExecutionStep;
    expect(errorDetails.fields.statusCode).toEqual([expect.stringMatching(/200 to 599/)]);
    expect(errorDetails.fields.headers).toEqual([expect.stringMatching(/"Bad Header" is not a header name/)]);

    await saved({ statusCode: 204, body: 'a body' });
    const withBody = await instance.request('POST', `/steps/${answer}/test`, { token });
    expect(withBody.body.data.lastExecutionStep.errorDetails.fields.body).toEqual([
      expect.stringMatching(/must be empty with status 204/),
    ]);
  });

  it('fails the run at the step, and answers 422, when a variable makes the answer one HTTP cannot carry', async () => {
    const { flowId } = await respondingFlow((trigger) => ({
      statusCode: ref(trigger, 'query.status'),
      headers: [{ key: 'X-Echo', value: ref(trigger, 'query.echo') }],
      body: ref(trigger, 'query.body'),
    }));
    const ok = await sync(flowId, '?status=201&echo=fine&body=hello');
    expect(ok.status).toBe(201);
    expect(ok.headers.get('x-echo')).toBe('fine');
    expect(await ok.text()).toBe('hello');

    const noBody = await sync(flowId, '?status=204&echo=fine');
    expect(noBody.status).toBe(204);
    expect(await noBody.text()).toBe('');

    for (const query of [
      `?status=200&echo=${encodeURIComponent('a\r\nSet-Cookie: planted=1')}`,
      `?status=200&echo=${encodeURIComponent('a\u0007b')}`,
      `?status=200&echo=${encodeURIComponent('€uro')}`,
      '?status=101&echo=fine',
      '?status=204&echo=fine&body=oops',
    ]) {
      const refused = await sync(flowId, query);
      expect(refused.status, query).toBe(422);
      expect(await refused.json(), query).toMatchObject({ meta: { type: 'ExecutionFailedError' } });
      expect(refused.headers.get('set-cookie'), query).toBeNull();
    }
  });

  it('says so when a /sync call reaches a flow without a "respond with" step', async () => {
    const { flowId, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: { workSynchronously: true } },
      [() => ({ appKey: 'formatter', key: 'text', parameters: { transform: 'uppercase', input: 'x' } })],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    const res = await sync(flowId);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { executionId: string; status: string; message: string } };
    expect(body.data).toEqual({
      executionId: expect.any(String),
      status: 'success',
      message: 'The flow ran, but it has no "Respond with" step that answered this call.',
    });
    const execution = await instance.request('GET', `/executions/${body.data.executionId}`, { token });
    expect(execution.body.data.status).toBe('success');
  });
});
