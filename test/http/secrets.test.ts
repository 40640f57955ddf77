import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTP_PASSWORD, SMTP_USER, startAuthenticatedSink } from '../apps/support/smtp-login-sink.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { ADMIN, startTestInstance, type TestInstance } from '../support/http.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';

/**
 * Operations that handle every kind of secret the service holds, with every response body and log
 * entry kept; then each secret is looked for everywhere. A secret may appear only in the one answer
 * that hands it to its owner (a new session token, a new API token, an invitation link).
 */
const INSTANCE_MAIL = { user: 'instance-mailer', password: 'instance-smtp-secret' };
const METRICS_TOKEN = 'metrics-scrape-secret-0123456789';
const ENCRYPTION_KEY = Buffer.from('encryption key secret, 32 bytes!').toString('base64');
const PG_PASSWORD = 'pg-connection-secret';
const OAUTH_SECRET = 'oauth-client-secret-value';
const WRONG_PASSWORD = 'wrong password guess';

describe.each(DIALECTS)('secrets stay out of answers and logs (%s)', (dialect) => {
  let instance: TestInstance;
  let logger: CapturingLogger;
  let mail: SmtpSink;
  let connectionSmtp: Awaited<ReturnType<typeof startAuthenticatedSink>>;
  let licenseKey: string;
  /** Every answer, by the label of the call that got it. */
  const answers: { label: string; status: number; text: string }[] = [];
  /** The secrets, each with the label of the one answer allowed to carry it. */
  const secrets = new Map<string, string | null>();

  const call = async (label: string, method: string, path: string, options: Parameters<TestInstance['request']>[2]) => {
    const res = await instance.request(method, path, options);
    answers.push({
      label,
      status: res.status,
      text: `${JSON.stringify(res.body)} ${JSON.stringify([...res.headers])}`,
    });
    return res;
  };

  beforeAll(async () => {
    mail = await startSmtpSink({ login: INSTANCE_MAIL });
    connectionSmtp = await startAuthenticatedSink();
    logger = new CapturingLogger();
    const env = enterpriseEnv();
    licenseKey = env.LICENSE_KEY as string;
    instance = await startTestInstance(
      dialect,
      {
        ...env,
        ALLOW_PRIVATE_NETWORKS: 'true',
        METRICS_TOKEN,
        ENCRYPTION_KEY,
        SMTP_URL: `smtp://${INSTANCE_MAIL.user}:${INSTANCE_MAIL.password}@127.0.0.1:${mail.port}`,
      },
      { logger },
    );
  });
  afterAll(async () => {
    await instance.close();
    await mail.close();
    await connectionSmtp.close();
  });

  it('runs the operations that handle secrets', async () => {
    const installed = await call('install', 'POST', '/installation/users', { body: ADMIN });
    expect(installed.status).toBe(204);
    secrets.set(ADMIN.password, null);
    secrets.set(licenseKey, null);
    secrets.set(METRICS_TOKEN, null);
    secrets.set(ENCRYPTION_KEY, null);
    secrets.set(INSTANCE_MAIL.password, null);

    expect(
      (
        await call('wrong sign-in', 'POST', '/access-tokens', {
          body: { email: ADMIN.email, password: WRONG_PASSWORD },
        })
      ).status,
    ).toBe(422);
    secrets.set(WRONG_PASSWORD, null);
    const signedIn = await call('sign-in', 'POST', '/access-tokens', {
      body: { email: ADMIN.email, password: ADMIN.password },
    });
    const token: string = signedIn.body.data.token;
    secrets.set(token, 'sign-in');

    await call('config', 'PATCH', '/admin/config', { token, body: { registrationEnabled: true } });
    const adminId: string = (await call('me', 'GET', '/users/me', { token })).body.data.id;
    await call('license', 'GET', '/service/license', {});
    await call('service config', 'GET', '/service/config', {});

    // Invitation and acceptance, then a password change and a reset through the instance's mailer.
    const roles = (await call('roles', 'GET', '/admin/roles', { token })).body.data;
    const userRoleId = roles.find((r: { name: string }) => r.name === 'User').id;
    const invited = await call('invite', 'POST', '/admin/users', {
      token,
      body: { fullName: 'Grace', email: 'grace@example.com', roleId: userRoleId },
    });
    const invitation = new URL(invited.body.data.acceptInvitationUrl).searchParams.get('token') as string;
    secrets.set(invitation, 'invite');
    await call('invited list', 'GET', '/admin/users', { token });
    expect(
      (
        await call('accept', 'POST', '/users/invitation', {
          body: { token: invitation, password: 'grace first password' },
        })
      ).status,
    ).toBe(204);
    secrets.set('grace first password', null);
    const grace = await call('grace sign-in', 'POST', '/access-tokens', {
      body: { email: 'grace@example.com', password: 'grace first password' },
    });
    secrets.set(grace.body.data.token, 'grace sign-in');
    const graceId = invited.body.data.id;
    expect(
      (
        await call('change password', 'PATCH', `/users/${graceId}/password`, {
          token: grace.body.data.token,
          body: { currentPassword: 'grace first password', password: 'grace second password' },
        })
      ).status,
    ).toBe(200);
    secrets.set('grace second password', null);
    // A registered account, so that the first mail to it is the reset link.
    await call('register', 'POST', '/users', {
      body: { fullName: 'Henry', email: 'henry@example.com', password: 'henry registered password' },
    });
    secrets.set('henry registered password', null);
    await call('forgot', 'POST', '/users/forgot-password', { body: { email: 'henry@example.com' } });
    const resetMail = await mail.waitFor('henry@example.com');
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(resetMail.text)?.[1] as string;
    expect(resetToken).toBeTruthy();
    secrets.set(resetToken, null);
    expect(
      (
        await call('reset', 'POST', '/users/reset-password', {
          body: { token: resetToken, password: 'henry reset password' },
        })
      ).status,
    ).toBe(204);
    secrets.set('henry reset password', null);
    await call('reset again', 'POST', '/users/reset-password', {
      body: { token: resetToken, password: 'henry second reset' },
    });

    // API tokens: shown once, then masked.
    const apiToken = await call('api token', 'POST', '/admin/api-tokens', { token });
    secrets.set(apiToken.body.data.token, 'api token');
    await call('api tokens', 'GET', '/admin/api-tokens', { token });
    await call('as api token', 'GET', '/admin/users', { headers: { 'x-api-token': apiToken.body.data.token } });

    // Connections: PostgreSQL (nothing listens) and SMTP (a wrong password, then the right one).
    const pg = await call('pg create', 'POST', '/apps/postgresql/connections', {
      token,
      body: {
        formattedData: {
          host: '127.0.0.1',
          port: 1,
          database: 'db',
          user: 'pguser',
          password: PG_PASSWORD,
          ssl: false,
        },
      },
    });
    secrets.set(PG_PASSWORD, null);
    await call('pg verify', 'POST', `/connections/${pg.body.data.id}/verify`, { token });
    await call('pg test', 'POST', `/connections/${pg.body.data.id}/test`, { token });
    await call('pg list', 'GET', '/apps/postgresql/connections', { token });
    const smtpFields = (password: string) => ({
      host: '127.0.0.1',
      port: connectionSmtp.port,
      user: SMTP_USER,
      password,
      secure: false,
      fromEmail: 'robot@conveyor.test',
    });
    const smtpWrong = await call('smtp wrong', 'POST', '/apps/smtp/connections', {
      token,
      body: { formattedData: smtpFields('smtp wrong secret') },
    });
    secrets.set('smtp wrong secret', null);
    await call('smtp wrong verify', 'POST', `/connections/${smtpWrong.body.data.id}/verify`, { token });
    const smtp = await call('smtp', 'POST', '/apps/smtp/connections', {
      token,
      body: { formattedData: smtpFields(SMTP_PASSWORD) },
    });
    secrets.set(SMTP_PASSWORD, null);
    await call('smtp verify', 'POST', `/connections/${smtp.body.data.id}/verify`, { token });
    await call('smtp patch', 'PATCH', `/connections/${smtp.body.data.id}`, {
      token,
      body: { formattedData: { fromEmail: 'other@conveyor.test' } },
    });
    await call('smtp reset', 'POST', `/connections/${smtp.body.data.id}/reset`, { token });
    await call('smtp list', 'GET', '/apps/smtp/connections', { token });
    await call('user apps', 'GET', `/users/${adminId}/apps`, { token });

    // An OAuth client's secret.
    const client = await call('oauth client', 'POST', '/admin/apps/github/auth-clients', {
      token,
      body: {
        name: 'GitHub',
        active: true,
        formattedAuthDefaults: { clientId: 'client-id', clientSecret: OAUTH_SECRET },
      },
    });
    secrets.set(OAUTH_SECRET, null);
    await call('oauth clients', 'GET', '/admin/apps/github/auth-clients', { token });
    await call('oauth client', 'GET', `/admin/apps/github/auth-clients/${client.body.data.id}`, { token });
    await call('public clients', 'GET', '/apps/github/auth-clients', { token });

    // Metrics, with the token and with a wrong one.
    await call('metrics', 'GET', '/metrics', { mount: '', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    await call('metrics refused', 'GET', '/metrics', {
      mount: '',
      headers: { authorization: `Bearer ${METRICS_TOKEN}x` },
    });

    // GraphQL sees the same resources.
    await call('graphql', 'POST', '/graphql', {
      mount: '',
      token,
      body: { query: 'query { currentUser { id email } }' },
    });

    await call('revoke', 'DELETE', `/access-tokens/${token}`, { token });

    // The operations did what they are for, so the secrets were really handled.
    const status = Object.fromEntries(answers.map((a) => [a.label, a.status]));
    expect(status).toMatchObject({
      'api token': 201,
      'as api token': 200,
      'pg verify': 422,
      'smtp wrong verify': 422,
      'smtp verify': 200,
      'oauth clients': 200,
      'user apps': 200,
      metrics: 200,
      'metrics refused': 401,
      graphql: 200,
      revoke: 204,
    });
  });

  it('finds no secret in any answer but the one that issued it', () => {
    expect(secrets.size).toBeGreaterThanOrEqual(15);
    const leaks: string[] = [];
    for (const [secret, issuer] of secrets) {
      for (const answer of answers) {
        if (answer.label !== issuer && answer.text.includes(secret))
          leaks.push(`${secret.slice(0, 12)}… in ${answer.label}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('finds no secret in the logs', () => {
    const written = logger.text();
    expect(logger.entries.length).toBeGreaterThan(20);
    expect([...secrets.keys()].filter((secret) => written.includes(secret)).map((s) => `${s.slice(0, 12)}…`)).toEqual(
      [],
    );
  });
});
