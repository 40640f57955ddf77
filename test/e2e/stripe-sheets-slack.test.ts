import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually } from '../support/engine-flows.js';
import { followConsent } from '../support/fake-oauth.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

/**
 * "Stripe payment succeeded -> Google Sheets add row -> Slack message", over the HTTP API, against
 * fakes of the three vendors' documented APIs that the instance reaches through APP_BASE_URL_<KEY>
 * and APP_AUTH_URL_<KEY>: Stripe's webhook endpoint is registered on publish and signs its
 * deliveries; Google and Slack connect through their OAuth2 consent.
 */
const WEBHOOK_SECRET = 'whsec_e2e_secret';
const CLIENT = { clientId: 'e2e-client', clientSecret: 'e2e-client-secret' };

/** The consent page of an authorization server: it approves at once and sends the browser back. */
const consent = (req: FakeRequest) => {
  const back = new URL(req.query.redirect_uri ?? '');
  back.searchParams.set('code', 'e2e-code');
  back.searchParams.set('state', req.query.state ?? '');
  return reply(302, null, { location: back.toString() });
};
const bearer = (req: FakeRequest, token: string) => req.headers.authorization === `Bearer ${token}`;

const startFakes = async () => {
  const stripe = await startFakeVendor({
    authorize: (req) => bearer(req, 'sk_test_e2e'),
    unauthorized: reply(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }),
    routes: {
      'GET /v1/account': () => ({ id: 'acct_1', email: 'billing@acme.example' }),
      'POST /v1/webhook_endpoints': (req) => ({
        id: 'we_1',
        object: 'webhook_endpoint',
        url: (req.body as Record<string, string>).url,
        secret: WEBHOOK_SECRET,
      }),
      'DELETE /v1/webhook_endpoints/:id': (req) => ({ id: req.params.id, deleted: true }),
    },
  });
  const google = await startFakeVendor({
    authorize: (req) => req.path === '/o/oauth2/v2/auth' || req.path === '/token' || bearer(req, 'ya29.e2e'),
    unauthorized: reply(401, { error: { code: 401, message: 'Request had invalid authentication credentials.' } }),
    routes: {
      'GET /o/oauth2/v2/auth': consent,
      'POST /token': (req) =>
        (req.body as Record<string, string>).code === 'e2e-code'
          ? { access_token: 'ya29.e2e', refresh_token: '1//e2e', expires_in: 3599, token_type: 'Bearer' }
          : reply(400, { error: 'invalid_grant', error_description: 'Bad code' }),
      'GET /v1/people/me': () => ({
        resourceName: 'people/1',
        emailAddresses: [{ value: 'ann@acme.example', metadata: { primary: true } }],
      }),
      'GET /v4/spreadsheets/:id': (req) => ({
        spreadsheetId: req.params.id,
        sheets: [{ properties: { sheetId: 0, title: 'Payments', index: 0 } }],
      }),
      'POST /v4/spreadsheets/:id/values/:rangeVerb': (req) => ({
        spreadsheetId: req.params.id,
        updates: { updatedRange: 'Payments!A2:C2', updatedRows: 1 },
      }),
    },
  });
  const slack = await startFakeVendor({
    authorize: (req) =>
      req.path === '/oauth/v2/authorize' || req.path === '/api/oauth.v2.access' || bearer(req, 'xoxp-e2e'),
    unauthorized: reply(200, { ok: false, error: 'invalid_auth' }),
    routes: {
      'GET /oauth/v2/authorize': consent,
      'POST /api/oauth.v2.access': () => ({
        ok: true,
        access_token: 'xoxb-e2e',
        token_type: 'bot',
        team: { id: 'T1', name: 'Acme' },
        authed_user: { id: 'U1', access_token: 'xoxp-e2e', token_type: 'user' },
      }),
      'GET /api/auth.test': () => ({ ok: true, team: 'Acme', user: 'ann', team_id: 'T1' }),
      'POST /api/chat.postMessage': (req) => ({
        ok: true,
        channel: (req.body as { channel: string }).channel,
        ts: '1700000000.000100',
      }),
    },
  });
  return { stripe, google, slack };
};

describe.each(DIALECTS)('Stripe payment -> Google Sheets row -> Slack message (%s)', (dialect) => {
  let fakes: { stripe: FakeVendor; google: FakeVendor; slack: FakeVendor };
  let instance: TestInstance;
  let token: string;

  beforeAll(async () => {
    fakes = await startFakes();
    instance = await startTestInstance(dialect, {
      ALLOW_PRIVATE_NETWORKS: 'true',
      APP_BASE_URL_STRIPE: fakes.stripe.url,
      APP_BASE_URL_GOOGLE_SHEETS: fakes.google.url,
      APP_AUTH_URL_GOOGLE_SHEETS: fakes.google.url,
      APP_BASE_URL_SLACK: `${fakes.slack.url}/api`,
      APP_AUTH_URL_SLACK: fakes.slack.url,
    });
    token = await installAndSignIn(instance);
  });
  afterAll(async () => {
    await instance?.close();
    await Promise.all(Object.values(fakes).map((fake) => fake.close()));
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await instance.request(method, path, { token, ...(body !== undefined && { body }) });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body?.data;
  };

  /** A connection as the console makes one: fields, then for OAuth2 the consent and the code. */
  const connect = async (appKey: string, formattedData: Record<string, unknown>, oauth: boolean) => {
    const { id } = await call('POST', `/apps/${appKey}/connections`, { formattedData });
    if (oauth) {
      const { url } = await call('POST', `/connections/${id}/auth-url`);
      const back = await followConsent(url);
      await call('PATCH', `/connections/${id}`, { formattedData: { code: back.code, state: back.state } });
    }
    const verified = await call('POST', `/connections/${id}/verify`);
    expect(verified.verified).toBe(true);
    return id as string;
  };

  it('registers with Stripe on publish, writes the row and posts the message for a signed delivery, refuses a forged one', async () => {
    const stripe = await connect('stripe', { secretKey: 'sk_test_e2e' }, false);
    const sheets = await connect('google-sheets', CLIENT, true);
    const slack = await connect('slack', CLIENT, true);
    const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;
    const { flowId, stepIds } = await buildFlow(
      instance,
      token,
      { appKey: 'stripe', key: 'paymentIntentSucceeded', parameters: {}, connectionId: stripe },
      [
        ([trigger = '']) => ({
          appKey: 'google-sheets',
          key: 'createSpreadsheetRow',
          connectionId: sheets,
          parameters: {
            driveId: 'myDrive',
            spreadsheetId: 'sheet-1',
            worksheetId: '0',
            'header-0': ref(trigger, 'id'),
            'header-1': ref(trigger, 'amount'),
            'header-2': ref(trigger, 'currency'),
          },
        }),
        ([trigger = '']) => ({
          appKey: 'slack',
          key: 'sendMessageToChannel',
          connectionId: slack,
          parameters: {
            channel: 'C0SALES',
            message: `Paid: ${ref(trigger, 'amount')} ${ref(trigger, 'currency')} (${ref(trigger, 'id')})`,
          },
        }),
      ],
    );
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    const flow = await call('GET', `/flows/${flowId}`);
    const registered = fakes.stripe.calls('POST /v1/webhook_endpoints');
    expect(registered).toHaveLength(1);
    expect(registered[0]?.body).toMatchObject({ 'enabled_events[0]': 'payment_intent.succeeded' });
    const registration = (registered[0]?.body ?? {}) as Record<string, string>;
    const webhookPath = new URL(registration.url ?? '').pathname;
    expect(webhookPath).toBe(`/webhooks/flows/${flowId}`);
    expect(flow.active).toBe(true);

    const event = JSON.stringify({
      id: 'evt_1',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_1', object: 'payment_intent', amount: 4200, currency: 'eur' } },
    });
    const deliver = (signature: string) =>
      instance.conveyor.app.request(webhookPath, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: event,
      });
    const t = Math.floor(Date.now() / 1000);
    const forged = await deliver(
      `t=${t},v1=${createHmac('sha256', 'whsec_wrong').update(`${t}.${event}`).digest('hex')}`,
    );
    expect(forged.status).toBe(401);
    const signed = await deliver(
      `t=${t},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${event}`).digest('hex')}`,
    );
    expect(signed.status).toBeLessThan(300);

    const runs = await eventually(
      async () => (await instance.request('GET', `/executions?flowId=${flowId}`, { token })).body.data as any[],
      (rows) => rows.length > 0 && rows.every((row) => row.status !== 'running' && row.status !== 'waiting'),
      20_000,
    );
    expect(runs.map((run) => run.status)).toEqual(['success']);
    const row = fakes.google.calls('POST /v4/spreadsheets/:id/values/:rangeVerb');
    expect(row).toHaveLength(1);
    expect(row[0]?.params).toEqual({ id: 'sheet-1', rangeVerb: "'Payments':append" });
    expect(row[0]?.body).toMatchObject({ values: [['pi_1', '4200', 'eur']] });
    const posted = fakes.slack.calls('POST /api/chat.postMessage');
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body).toMatchObject({ channel: 'C0SALES', text: 'Paid: 4200 eur (pi_1)' });
    expect(posted[0]?.headers.authorization).toBe('Bearer xoxp-e2e');
    expect(stepIds).toHaveLength(3);

    await call('PATCH', `/flows/${flowId}/status`, { active: false });
    expect(fakes.stripe.calls('DELETE /v1/webhook_endpoints/:id').map((req) => req.params.id)).toEqual(['we_1']);
  });
});
