import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppActionOutcome,
  runAppTrigger,
  TEST_REDIRECT_URI,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { WebhookRefusedError } from '../../adapters/apps/sdk/index.js';
import { typeform } from '../../adapters/apps/typeform/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { consentPage } from './support/consent-page.js';

const CLIENT = { clientId: 'tf-client', clientSecret: 'tf-secret' };

/** More than one page of 200 (Typeform's largest), in creation order. */
const FORMS = Array.from({ length: 205 }, (_, i) => ({
  id: `form${i + 1}`,
  title: `Form ${i + 1}`,
  created_at: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
}));
const WORKSPACES = Array.from({ length: 203 }, (_, i) => ({ id: `ws${i + 1}`, name: `Workspace ${i + 1}` }));

/** Typeform's numbered pages: `page` from 1, `page_size` 10 by default and at most 200. */
const page = <T>(req: FakeRequest, all: readonly T[]) => {
  const number = Number(req.query.page ?? 1);
  const pageSize = Math.min(Number(req.query.page_size ?? 10), 200);
  return {
    total_items: all.length,
    page_count: Math.ceil(all.length / pageSize),
    items: all.slice((number - 1) * pageSize, number * pageSize),
  };
};

let vendor: FakeVendor;
/** The access tokens Typeform accepts now. */
let valid: Set<string>;

beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.path === '/oauth/token' || valid.has(req.headers.authorization?.slice(7) ?? ''),
    unauthorized: reply(401, {
      code: 'AUTHENTICATION_FAILED',
      description: 'Authentication credentials not found on the Request Headers',
    }),
    routes: {
      'POST /oauth/token': (req) => {
        const form = req.body as Record<string, string>;
        if (form.client_id !== CLIENT.clientId || form.client_secret !== CLIENT.clientSecret)
          return reply(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
        const fresh = form.grant_type === 'authorization_code' ? 'tf-access-1' : 'tf-access-2';
        if (
          (form.grant_type === 'authorization_code' && form.code !== 'good-code') ||
          (form.grant_type === 'refresh_token' && form.refresh_token !== 'tf-refresh')
        )
          return reply(400, { error: 'invalid_grant', error_description: 'The grant is invalid or expired' });
        valid.add(fresh);
        return { access_token: fresh, token_type: 'bearer', expires_in: 604800, refresh_token: 'tf-refresh' };
      },
      'GET /me': () => ({ alias: 'ann', email: 'ann@example.com', language: 'en' }),
      'GET /forms': (req) =>
        page(req, req.query.sort_by === 'created_at' && req.query.order_by === 'desc' ? [...FORMS].reverse() : FORMS),
      'GET /workspaces': (req) => page(req, WORKSPACES),
      'GET /forms/:id/responses': (req) =>
        req.params.id === 'form1'
          ? { total_items: 1, page_count: 1, items: [{ response_id: 'r1', submitted_at: '2024-01-02T00:00:00Z' }] }
          : reply(404, { code: 'FORM_NOT_FOUND', description: `Non existing form with uid ${req.params.id}` }),
      'POST /forms': (req) => reply(201, { id: 'new1', ...(req.body as object) }),
      'DELETE /forms/:id/responses': () => reply(200),
      'PUT /forms/:id/webhooks/:tag': (req) => ({
        id: 'wh1',
        form_id: req.params.id,
        tag: req.params.tag,
        ...(req.body as object),
      }),
      'DELETE /forms/:id/webhooks/:tag': () => reply(204),
    },
  });
});
afterAll(() => vendor.close());
beforeEach(() => {
  valid = new Set(['tf-access-1']);
});

const call = (parameters: Record<string, unknown> = {}) => ({
  parameters,
  auth: { accessToken: 'tf-access-1', refreshToken: 'tf-refresh' },
  oauthClient: CLIENT,
  baseUrl: vendor.url,
  authUrl: vendor.url,
});

describe('typeform: connection', () => {
  it('sends the user to the consent page with the client id, redirect, state and scopes', () => {
    expect(consentPage(typeform, CLIENT)).toEqual({
      page: 'https://api.typeform.com/oauth/authorize',
      query: {
        client_id: 'tf-client',
        redirect_uri: TEST_REDIRECT_URI,
        state: 's1',
        response_type: 'code',
        scope:
          'forms:read forms:write webhooks:read webhooks:write responses:read accounts:read workspaces:read offline',
      },
    });
  });

  it('exchanges the code at the token endpoint and names the account by its alias', async () => {
    const check = await verifyAppAuth(typeform, { code: 'good-code', state: 's1' }, call());
    expect(check).toMatchObject({ ok: true, screenName: 'ann' });
    expect(vendor.calls('POST /oauth/token').at(-1)?.body).toMatchObject({
      grant_type: 'authorization_code',
      code: 'good-code',
      redirect_uri: TEST_REDIRECT_URI,
    });
    if (check.ok) expect(check.credentials).toMatchObject({ accessToken: 'tf-access-1', refreshToken: 'tf-refresh' });
  });

  it("refuses a bad code with Typeform's reason", async () => {
    const check = await verifyAppAuth(typeform, { code: 'stale', state: 's1' }, call());
    expect(check).toEqual({ ok: false, reason: 'Authorization failed: The grant is invalid or expired' });
  });

  it('refreshes an access token Typeform no longer takes, then retries', async () => {
    const output = await runAppAction(typeform, 'findResponses', {
      ...call({ formId: 'form1' }),
      auth: { accessToken: 'tf-access-old', refreshToken: 'tf-refresh' },
    });
    expect(output).toMatchObject({ total_items: 1 });
    expect(vendor.calls('POST /oauth/token').at(-1)?.body).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'tf-refresh',
    });
    expect(vendor.calls('GET /forms/:id/responses').at(-1)?.headers.authorization).toBe('Bearer tf-access-2');
  });
});

describe('typeform: actions', () => {
  it('finds responses, newest first, with the filters given', async () => {
    const output = await runAppAction(
      typeform,
      'findResponses',
      call({ formId: 'form1', query: 'ann', since: '2024-01-01T00:00:00', completed: 'true', pageSize: 10 }),
    );
    expect(output).toEqual({
      total_items: 1,
      page_count: 1,
      items: [{ response_id: 'r1', submitted_at: '2024-01-02T00:00:00Z' }],
    });
    expect(vendor.calls('GET /forms/:id/responses').at(-1)?.query).toEqual({
      page_size: '10',
      sort: 'submitted_at,desc',
      query: 'ann',
      since: '2024-01-01T00:00:00',
      completed: 'true',
    });
  });

  it("surfaces Typeform's description of an error", async () => {
    await expect(runAppAction(typeform, 'findResponses', call({ formId: 'gone' }))).rejects.toThrow(
      /answered 404: Non existing form with uid gone/,
    );
  });

  it('creates a form in a workspace, with its fields', async () => {
    const fields = [{ title: 'Your name?', type: 'short_text' }];
    const output = await runAppAction(
      typeform,
      'createForm',
      call({ title: 'Survey', workspaceId: 'ws2', fields: JSON.stringify(fields) }),
    );
    const sent = vendor.calls('POST /forms').at(-1);
    expect(sent?.body).toEqual({
      title: 'Survey',
      workspace: { href: 'https://api.typeform.com/workspaces/ws2' },
      fields,
    });
    expect(output).toMatchObject({ id: 'new1', title: 'Survey' });
  });

  it('deletes responses by their ids', async () => {
    const output = await runAppAction(typeform, 'deleteResponses', call({ formId: 'form1', responseIds: 'r1, r2' }));
    expect(vendor.calls('DELETE /forms/:id/responses').at(-1)?.query).toEqual({ included_response_ids: 'r1,r2' });
    expect(output).toEqual({ formId: 'form1', deletedResponseIds: ['r1', 'r2'] });
  });

  it('refuses a list of ids that names none', async () => {
    await expect(
      runAppAction(typeform, 'deleteResponses', call({ formId: 'form1', responseIds: ' , ' })),
    ).rejects.toThrow(/responseIds/);
  });

  it('turns a 429 into a retryable failure', async () => {
    vendor.rateLimit(1);
    const outcome = await runAppActionOutcome(typeform, 'findResponses', {
      parameters: { formId: 'form1' },
      auth: { accessToken: 'tf-access-1' },
      baseUrl: vendor.url,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('typeform: triggers and dynamic data', () => {
  it('polls new forms newest first, each with its id', async () => {
    const items = await runAppTrigger(typeform, 'newForm', call({ workspaceId: 'ws1' }));
    expect(items).toHaveLength(200);
    expect(items.slice(0, 3).map((item) => item.id)).toEqual(['form205', 'form204', 'form203']);
    expect(items[0]?.data).toEqual(FORMS[204]);
    expect(vendor.calls('GET /forms').at(-1)?.query).toMatchObject({
      sort_by: 'created_at',
      order_by: 'desc',
      workspace_id: 'ws1',
    });
  });

  it('lists forms and workspaces across pages', async () => {
    const forms = await loadAppDynamicData(typeform, 'listForms', call());
    expect(forms.map((option) => option.value)).toEqual(FORMS.map((form) => form.id));
    const workspaces = await loadAppDynamicData(typeform, 'listWorkspaces', call());
    expect(workspaces).toEqual(WORKSPACES.map((w) => ({ name: w.name, value: w.id })));
    expect(vendor.calls('GET /workspaces').map((req) => req.query.page)).toEqual(['1', '2']);
  });
});

describe('typeform: newEntry registration', () => {
  const webhookUrl = 'https://conveyor.test/webhooks/flows/f1';

  it('creates a form webhook with a tag and a secret of its own, and deletes it', async () => {
    const hook = (await registerAppHook(typeform, 'newEntry', { ...call({ formId: 'form1' }), webhookUrl })) as {
      formId: string;
      tag: string;
      secret: string;
    };
    expect(hook).toEqual({
      formId: 'form1',
      tag: expect.stringMatching(/^conveyor-[0-9a-f]{16}$/),
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const made = vendor.calls('PUT /forms/:id/webhooks/:tag').at(-1);
    expect(made?.params).toEqual({ id: 'form1', tag: hook.tag });
    expect(made?.body).toEqual({ url: webhookUrl, enabled: true, secret: hook.secret, verify_ssl: true });
    await unregisterAppHook(typeform, 'newEntry', { ...call({ formId: 'other' }), webhookUrl, hook });
    expect(vendor.calls('DELETE /forms/:id/webhooks/:tag').at(-1)?.params).toEqual({ id: 'form1', tag: hook.tag });
  });
});

describe('typeform: newEntry deliveries', () => {
  const hook = { formId: 'form1', tag: 'conveyor-abc', secret: 'shh-secret' };
  const event = {
    event_id: 'ev1',
    event_type: 'form_response',
    form_response: { form_id: 'form1', token: 'tok1', submitted_at: '2024-05-01T10:00:00Z', answers: [] },
  };
  const delivery = (signature: string, raw = JSON.stringify(event)) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'typeform-signature': signature },
    query: {},
    body: JSON.parse(raw),
    rawBody: raw,
  });
  const sign = (raw: string, secret = hook.secret) =>
    `sha256=${createHmac('sha256', secret).update(raw).digest('base64')}`;

  it("hands on a delivery signed with the hook's secret, named by the response token", async () => {
    const raw = JSON.stringify(event);
    const items = await runAppTrigger(typeform, 'newEntry', {
      ...call({ formId: 'form1' }),
      webhook: delivery(sign(raw)),
      hook,
    });
    expect(items).toEqual([{ id: 'tok1', data: event }]);
  });

  it('refuses a forged or re-serialised delivery, and one without a hook', async () => {
    const raw = JSON.stringify(event);
    const forged = runAppTrigger(typeform, 'newEntry', {
      ...call({ formId: 'form1' }),
      webhook: delivery(sign(raw, 'not-the-secret')),
      hook,
    });
    await expect(forged).rejects.toBeInstanceOf(WebhookRefusedError);
    // Signed over other bytes than those received (the same JSON, spaced differently).
    const spaced = runAppTrigger(typeform, 'newEntry', {
      ...call({ formId: 'form1' }),
      webhook: delivery(sign(raw), JSON.stringify(event, null, 2)),
      hook,
    });
    await expect(spaced).rejects.toThrow(/Typeform-Signature/);
    const unhooked = runAppTrigger(typeform, 'newEntry', {
      ...call({ formId: 'form1' }),
      webhook: delivery(sign(raw)),
    });
    await expect(unhooked).rejects.toBeInstanceOf(WebhookRefusedError);
  });
});

describe('typeform: compatibility', () => {
  it("keeps Automatisch's keys", () => {
    const { manifest } = typeform;
    expect(manifest.key).toBe('typeform');
    expect(manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    const newEntry = manifest.triggers.find((trigger) => trigger.key === 'newEntry');
    expect(newEntry?.type).toBe('webhook');
    expect(newEntry?.arguments.map((argument) => argument.key)).toEqual(['formId']);
    expect(newEntry?.arguments[0]?.dynamicData?.key).toBe('listForms');
    expect(Object.keys(typeform.dynamicData)).toContain('listForms');
  });
});
