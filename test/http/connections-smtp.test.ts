import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMTP_PASSWORD, SMTP_USER, startAuthenticatedSink } from '../apps/support/smtp-login-sink.js';
import { runAuthSteps } from '../support/automatisch-auth-steps.js';
import { DIALECTS } from '../support/databases.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { rawQuery } from '../support/raw-sql.js';

let sink: Awaited<ReturnType<typeof startAuthenticatedSink>>;
beforeAll(async () => {
  sink = await startAuthenticatedSink();
});
afterAll(() => sink.close());

describe.each(DIALECTS)('SMTP connections over HTTP (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect, { ALLOW_PRIVATE_NETWORKS: 'true' }, {}, { onDisk: true });
    token = await installAndSignIn(instance);
  });
  afterEach(() => instance.close());

  const fields = (password = SMTP_PASSWORD) => ({
    host: '127.0.0.1',
    port: sink.port,
    user: SMTP_USER,
    password,
    secure: false,
    fromEmail: 'robot@conveyor.test',
  });

  it('verifies by logging in, tests, resets and deletes; the password stays sealed', async () => {
    const created = await instance.request('POST', '/apps/smtp/connections', {
      token,
      body: { formattedData: fields() },
    });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    const [row] = await rawQuery(instance.database.url, 'select credentials from connections where id = ?', [id]);
    expect(row.credentials).not.toContain(SMTP_PASSWORD);
    expect(row.credentials).not.toContain(SMTP_USER);

    const verified = await instance.request('POST', `/connections/${id}/verify`, { token });
    expect(verified.status).toBe(200);
    expect(verified.body.data.verified).toBe(true);
    expect(verified.body.data.formattedData.screenName).toBe('robot@conveyor.test');
    expect(JSON.stringify(verified.body)).not.toContain(SMTP_PASSWORD);
    expect((await instance.request('POST', `/connections/${id}/test`, { token })).body.data.verified).toBe(true);

    const reset = await instance.request('POST', `/connections/${id}/reset`, { token });
    expect(reset.body.data).toMatchObject({ verified: false, formattedData: { screenName: expect.any(String) } });
    expect((await instance.request('POST', `/connections/${id}/test`, { token })).body.data.verified).toBe(false);
    expect((await instance.request('DELETE', `/connections/${id}`, { token })).status).toBe(204);
  });

  it('refuses a wrong password with the server’s reason and never repeats the password', async () => {
    const wrong = 'not-the-password-123';
    const { id } = (
      await instance.request('POST', '/apps/smtp/connections', { token, body: { formattedData: fields(wrong) } })
    ).body.data;
    const refused = await instance.request('POST', `/connections/${id}/verify`, { token });
    expect(refused.status).toBe(422);
    expect(refused.body.meta.type).toBe('ConnectionVerificationError');
    expect(refused.body.errors.general[0]).toMatch(/invalid username or password/i);
    expect(JSON.stringify(refused.body)).not.toContain(wrong);
  });

  it('connects and reconnects by the steps of GET /apps/smtp/auth, run as Automatisch’s client runs them', async () => {
    const auth = (await instance.request('GET', '/apps/smtp/auth', { token })).body.data;
    expect(auth.authenticationSteps).toMatchObject([
      {
        type: 'mutation',
        name: 'createConnection',
        arguments: [
          { name: 'key', value: '{key}' },
          { name: 'formattedData', value: '{fields.all}' },
        ],
      },
      { type: 'mutation', name: 'verifyConnection', arguments: [] },
    ]);
    expect(auth.reconnectionSteps.map((step: { name: string }) => step.name)).toEqual([
      'resetConnection',
      'updateConnection',
      'verifyConnection',
    ]);
    expect(auth).not.toHaveProperty('sharedAuthenticationSteps');
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await instance.request(method, path, { token, body });
      if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.data;
    };
    const noPopup = () => Promise.reject(new Error('no consent page for an app without OAuth'));
    const connected = await runAuthSteps(auth.authenticationSteps, { key: 'smtp', fields: fields() }, call, noPopup);
    expect(connected.verifyConnection).toMatchObject({ verified: true });
    const again = { key: 'smtp', fields: fields(), connectionId: connected.connectionId };
    expect((await runAuthSteps(auth.reconnectionSteps, again, call, noPopup)).verifyConnection).toMatchObject({
      id: connected.connectionId,
      verified: true,
    });
  });
});
