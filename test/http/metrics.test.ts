import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, finishedRun, sendWebhook } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const scrape = async (instance: TestInstance, headers: Record<string, string> = {}) => {
  const res = await instance.conveyor.app.request('/metrics', { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

/** The value of one sample line, e.g. `name{a="b"} 3`, or undefined when it is not exposed. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/** The families (`# TYPE` lines) that have no sample line. */
const familiesWithoutSamples = (text: string): string[] => {
  const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  return [...text.matchAll(/^# TYPE (\S+) \S+$/gm)]
    .map((match) => match[1] as string)
    .filter((family) => !lines.some((line) => new RegExp(`^${family}(_bucket|_sum|_count|_total)?[{ ]`).test(line)));
};

describe.each(DIALECTS)('the first scrape of a fresh instance (%s)', (dialect) => {
  it('has a sample in every family it declares, the queue depth of every queue included', async () => {
    const instance = await startTestInstance(dialect);
    try {
      const { status, text } = await scrape(instance);
      expect(status).toBe(200);
      expect(text).toContain('# TYPE conveyor_queue_depth gauge');
      expect(familiesWithoutSamples(text)).toEqual([]);
      expect(sample(text, 'conveyor_queue_depth{queue="execution.run"}')).toBe(0);
      expect(sample(text, 'conveyor_queue_depth{queue="flow.trigger"}')).toBe(0);
    } finally {
      await instance.close();
    }
  });
});

describe.each(DIALECTS)('GET /metrics (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeAll(async () => {
    instance = await startTestInstance(dialect);
    token = await installAndSignIn(instance);
  });
  afterAll(() => instance.close());

  it('exposes request latency by route pattern, executions by status and queue depth during a run', async () => {
    const { flowId, call } = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: 'datastore', key: 'setValue', parameters: { key: 'seen', value: 'yes' } }),
    ]);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    await sendWebhook(instance, flowId, { hello: 'world' });
    expect((await finishedRun(instance, token, flowId)).status).toBe('success');
    // A job due in an hour keeps its queue's depth above zero whatever the workers do meanwhile.
    await instance.conveyor.queue.send({
      name: 'metrics.probe',
      payload: {},
      startAfter: new Date(Date.now() + 3_600_000),
    });
    await instance.conveyor.app.request(`/api/no-such-page/${flowId}`);

    const { status, type, text } = await scrape(instance);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);

    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="POST",route="/webhooks/flows/:flowId",status_code="204"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="PATCH",route="/api/v1/steps/:stepId",status_code="200"}',
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="(unmatched)",status_code="404"}'),
    ).toBe(1);

    expect(text).toContain('# TYPE conveyor_executions gauge');
    expect(sample(text, 'conveyor_executions{status="success"}')).toBe(1);
    expect(sample(text, 'conveyor_executions{status="failure"}')).toBe(0);

    expect(text).toContain('# TYPE conveyor_queue_depth gauge');
    expect(sample(text, 'conveyor_queue_depth{queue="metrics.probe"}')).toBe(1);

    expect(sample(text, 'conveyor_job_duration_seconds_count{queue="execution.run",outcome="completed"}')).toBe(1);
    expect(text).toContain('process_cpu_user_seconds_total');

    // Ids (flows, steps, users, executions, tokens) never become labels.
    expect(text).not.toMatch(UUID);
    expect(text).not.toContain(flowId);
    expect(text).not.toContain(token);
  });
});

describe.each(DIALECTS)('GET /metrics guarded by METRICS_TOKEN (%s)', (dialect) => {
  const METRICS_TOKEN = 'scrape-me-0123456789';
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance(dialect, { METRICS_TOKEN });
  });
  afterAll(() => instance.close());

  it('refuses a scrape without the token, or with another, in the error shape', async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: `Basic ${METRICS_TOKEN}` },
      { authorization: `Bearer ${METRICS_TOKEN}x` },
      { authorization: 'Bearer' },
    ]) {
      const res = await scrape(instance, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(JSON.parse(res.text)).toEqual({
        errors: { general: ['Authentication is required.'] },
        meta: { type: 'UnauthenticatedError' },
      });
    }
  });

  it('serves the figures of this instance alone with the token', async () => {
    const res = await scrape(instance, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(res.status).toBe(200);
    // Each instance has its own registry: the other suite's webhook is not counted here.
    expect(res.text).not.toContain('/webhooks/flows/:flowId');
    expect(
      sample(res.text, 'http_request_duration_seconds_count{method="GET",route="/metrics",status_code="401"}'),
    ).toBe(5);
  });

  it('does not take an API access token in its place', async () => {
    const token = await installAndSignIn(instance);
    expect((await scrape(instance, { authorization: `Bearer ${token}` })).status).toBe(401);
  });
});
