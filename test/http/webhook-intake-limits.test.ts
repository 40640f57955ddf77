import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_CSP } from '../../adapters/http/middleware/webhook-sandbox.js';
import { BACKLOG_SAMPLE_MS } from '../../core/engine/intake-gate.js';
import { ManualClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

const OFF = {
  WEBHOOK_RATE_LIMIT_PER_FLOW: '0',
  WEBHOOK_MAX_PENDING: '0',
  WEBHOOK_MAX_BACKLOG: '0',
  WEBHOOK_MAX_BACKLOG_PER_FLOW: '0',
};

/**
 * Limits of webhook intake, seen from outside. The clock stands still unless a test moves it, so
 * the backlog the gate counts only grows between its counts of the database: what is refused
 * does not depend on how fast this machine runs the accepted runs.
 */
describe.each(DIALECTS)('webhook intake limits (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  let clock: ManualClock;
  const start = async (env: Record<string, string>) => {
    clock = new ManualClock();
    instance = await startTestInstance(dialect, { ...OFF, ...env }, { clock });
    token = await installAndSignIn(instance);
  };
  afterEach(() => instance.close());

  const publishedFlow = async () => {
    const { flowId, call } = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: 'formatter', key: 'text', parameters: { transform: 'uppercase', input: 'hello' } }),
    ]);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    return flowId;
  };
  const hook = async (flowId: string, body = '{"n":1}') => {
    const res = await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? JSON.parse(text) : null };
  };
  const csp = async (flowId: string) =>
    (await instance.conveyor.app.request(`/webhooks/flows/${flowId}`, { method: 'POST' })).headers.get(
      'content-security-policy',
    );
  const runs = async (flowId: string, status = '') =>
    (await instance.request('GET', `/executions?flowId=${flowId}${status}`, { token })).body.meta.count as number;

  it('answers 429 RateLimitedError with Retry-After to a flow over its rate, and lets other flows in', async () => {
    await start({ WEBHOOK_RATE_LIMIT_PER_FLOW: '1', WEBHOOK_RATE_LIMIT_BURST: '2' });
    const [busy, quiet] = [await publishedFlow(), await publishedFlow()];
    expect((await hook(busy)).status).toBe(204);
    expect((await hook(busy)).status).toBe(204);
    const limited = await hook(busy);
    expect(limited).toEqual({
      status: 429,
      retryAfter: '1',
      body: { errors: { general: ['Too many attempts. Try again in 1 seconds.'] }, meta: { type: 'RateLimitedError' } },
    });
    // Served by node:http (as `conveyor start` serves it), refused before it is read: a body that
    // is not JSON does not get as far as a 400.
    const server = createServer(instance.conveyor.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const early = await fetch(`http://127.0.0.1:${port}/webhooks/flows/${busy}`, {
        method: 'POST',
        body: '{not json',
      });
      expect(early.status).toBe(429);
      expect(early.headers.get('content-security-policy')).toBe(WEBHOOK_CSP);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // The app alone (embedded, or in-process) reads the call first, then refuses it all the same.
    expect((await hook(busy, '{not json')).status).toBe(400);
    // Refused early, yet sandboxed as every webhook answer is.
    expect(await csp(busy)).toBe(WEBHOOK_CSP);
    expect((await hook(quiet)).status).toBe(204);
    clock.advance(1000);
    expect((await hook(busy)).status).toBe(204);
    expect(await runs(busy)).toBe(3);
  });

  it('answers 503 ServiceUnavailableError with Retry-After beyond a flow’s backlog, stores nothing of it, and runs all it took', async () => {
    await start({ WEBHOOK_MAX_BACKLOG_PER_FLOW: '3' });
    const [full, other] = [await publishedFlow(), await publishedFlow()];
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await hook(full));
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204, 503, 503]);
    expect(answers[3]).toEqual({
      status: 503,
      retryAfter: '1',
      body: {
        errors: { general: ['The server is busy. Try again in 1 seconds.'] },
        meta: { type: 'ServiceUnavailableError' },
      },
    });
    expect((await hook(other)).status).toBe(204);

    await eventually(
      () => runs(full, '&status=success'),
      (n) => n === 3,
    );
    expect(await runs(full)).toBe(3);
    // Once the runs are done, the next count of the database lets the flow in again.
    clock.advance(BACKLOG_SAMPLE_MS);
    await eventually(
      async () => (await hook(full)).status,
      (status) => status === 204,
    );
  });

  it('answers 503 to every flow once all flows’ runs together fill the process’s backlog', async () => {
    await start({ WEBHOOK_MAX_BACKLOG: '3' });
    const [first, second] = [await publishedFlow(), await publishedFlow()];
    expect([(await hook(first)).status, (await hook(second)).status, (await hook(first)).status]).toEqual([
      204, 204, 204,
    ]);
    expect((await hook(second)).status).toBe(503);
    expect((await hook(first)).status).toBe(503);
    await eventually(
      async () => (await runs(first, '&status=success')) + (await runs(second, '&status=success')),
      (n) => n === 3,
    );
  });
});
