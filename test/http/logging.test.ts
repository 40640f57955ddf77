import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingLogger } from '../support/capturing-logger.js';
import { DIALECTS } from '../support/databases.js';
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
