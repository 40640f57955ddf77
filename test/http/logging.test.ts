import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingLogger } from '../support/capturing-logger.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually, sendWebhook } from '../support/engine-flows.js';
import { ADMIN, installAndSignIn, signIn, startTestInstance, type TestInstance } from '../support/http.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';

describe.each(DIALECTS)('request logs (%s)', (dialect) => {
  let instance: TestInstance;
  let logger: CapturingLogger;
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    logger = new CapturingLogger();
    instance = await startTestInstance(dialect, { SMTP_URL: smtp.url }, { logger });
  });
  afterAll(async () => {
    await instance.close();
    await smtp.close();
  });

  it('writes one structured line per request with its id, route pattern, status and duration', async () => {
    await instance.conveyor.app.request('/api/v1/service/info', { headers: { 'x-request-id': 'req-42' } });
    const line = logger.entries.find((e) => e.fields.requestId === 'req-42');
    expect(line?.fields).toMatchObject({ method: 'GET', route: '/api/v1/service/info', status: 200 });
    expect(line?.fields.durationMs).toBeTypeOf('number');
  });

  it('writes passing health checks at debug level only, so that probes do not drown the rest', async () => {
    await instance.conveyor.app.request('/healthcheck', { headers: { 'x-request-id': 'probe' } });
    const line = logger.entries.find((e) => e.fields.requestId === 'probe');
    expect(line).toMatchObject({ level: 'debug', fields: { route: '/healthcheck', status: 200 } });
  });

  it('never writes passwords, tokens or reset links', async () => {
    const token = await installAndSignIn(instance);
    const other = await signIn(instance, ADMIN.email, ADMIN.password);
    await instance.request('DELETE', `/access-tokens/${other}`, { token, headers: { 'x-request-id': 'revoke' } });
    await instance.request('POST', '/users/forgot-password', { body: { email: ADMIN.email } });
    const mail = await smtp.waitFor(ADMIN.email);
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? 'missing';
    await instance.request('POST', '/users/reset-password', { body: { token: resetToken, password: 'new password!' } });

    expect(logger.entries.find((e) => e.fields.requestId === 'revoke')?.fields.route).toBe(
      '/api/v1/access-tokens/:token',
    );
    const written = logger.text();
    for (const secret of [ADMIN.password, 'new password!', token, other, resetToken]) {
      expect(written).not.toContain(secret);
    }
  });
});

describe.each(DIALECTS)('unexpected failures (%s)', (dialect) => {
  it('answer 500 InternalError without details, and the log has the request id and the cause', async () => {
    const logger = new CapturingLogger();
    const instance = await startTestInstance(dialect, {}, { logger });
    const token = await installAndSignIn(instance);
    await instance.conveyor.close(); // the database goes away under a running server
    try {
      const res = await instance.conveyor.app.request('/api/v1/users/me', {
        headers: { authorization: `Bearer ${token}`, 'x-request-id': 'db-gone' },
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        errors: { general: ['Something went wrong. The server log has the details under this request id.'] },
        meta: { type: 'InternalError' },
      });
      const logged = logger.entries.find((e) => e.level === 'error' && e.fields.requestId === 'db-gone');
      expect(logged?.message).toBe('unhandled error while serving a request');
    } finally {
      await instance.database.drop();
    }
  });
});

describe.each(DIALECTS)('run logs (%s)', (dialect) => {
  let instance: TestInstance;
  let logger: CapturingLogger;
  let token: string;
  beforeAll(async () => {
    logger = new CapturingLogger();
    instance = await startTestInstance(dialect, { ALLOW_PRIVATE_NETWORKS: 'true' }, { logger });
    token = await installAndSignIn(instance);
  });
  afterAll(() => instance.close());

  const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;
  /** A published flow: a webhook, then one action. */
  const flowWith = async (action: (triggerId: string) => Record<string, unknown>) => {
    const { flowId, stepIds, call } = await buildFlow(
      instance,
      token,
      { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} },
      [([trigger]) => action(trigger as string) as never],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    return { flowId, actionId: stepIds[1] as string };
  };
  const runOf = async (flowId: string, status: string) =>
    (
      await eventually(
        async (): Promise<any[]> =>
          (
            await instance.request('GET', `/executions?flowId=${flowId}`, { token })
          ).body.data,
        (rows) => rows[0]?.status === status,
      )
    )[0];
  const worker = new RegExp(`^${hostname()}:${process.pid}:`);

  it('log a run that fails once, at error level, with the flow, execution, step and error', async () => {
    const { flowId, actionId } = await flowWith((trigger) => ({
      appKey: 'formatter',
      key: 'text',
      parameters: { transform: 'parseStringifiedJson', input: ref(trigger, 'body.payload') },
    }));
    await sendWebhook(instance, flowId, { payload: 'not json' });
    const run = await runOf(flowId, 'failure');
    // The run is stored as failed before its worker, past the commit, writes the line.
    const errors = await eventually(
      async () => logger.entries.filter((e) => e.level === 'error' && e.fields.executionId === run.id),
      (lines) => lines.length > 0,
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      message: 'execution failed',
      fields: { flowId, executionId: run.id, stepId: actionId, err: expect.stringMatching(/not valid JSON/) },
    });
    expect(errors[0]?.fields.worker).toMatch(worker);
  });

  it('log a successful run at debug level, naming the process that ran it', async () => {
    const { flowId } = await flowWith((trigger) => ({
      appKey: 'formatter',
      key: 'text',
      parameters: { transform: 'uppercase', input: ref(trigger, 'body.payload') },
    }));
    await sendWebhook(instance, flowId, { payload: 'fine' });
    const run = await runOf(flowId, 'success');
    const lines = await eventually(
      async () => logger.entries.filter((e) => e.fields.executionId === run.id),
      (found) => found.length > 0,
    );
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'debug',
        message: 'execution succeeded',
        fields: expect.objectContaining({ flowId, executionId: run.id, worker: expect.stringMatching(worker) }),
      }),
    ]);
  });

  it('log a step failure that will be retried as a warning with its error', async () => {
    // Nothing listens on port 9 of loopback: a network failure, worth retrying.
    const { flowId, actionId } = await flowWith(() => ({
      appKey: 'http-request',
      key: 'customRequest',
      parameters: { method: 'GET', url: 'http://127.0.0.1:9/' },
    }));
    await sendWebhook(instance, flowId, {});
    const run = await runOf(flowId, 'waiting');
    const retry = logger.entries.find(
      (e) => e.fields.executionId === run.id && e.message === 'step failed; retrying later',
    );
    expect(retry).toMatchObject({
      level: 'warn',
      fields: { flowId, stepId: actionId, attempts: 1, err: expect.stringMatching(/\S/) },
    });
    expect(logger.entries.filter((e) => e.level === 'error' && e.fields.executionId === run.id)).toEqual([]);
  });
});
