import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { pipedrive } from '../../adapters/apps/pipedrive/index.js';
import { basicHeader, createMemoryStore, WebhookRefusedError } from '../../adapters/apps/sdk/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { expectOneRefresh, expectRetryableRateLimit, tokenIssuer } from './support/vendor-checks.js';

const client = { clientId: 'pd-client', clientSecret: 'pd-secret' };

/** Pipedrive's error answer. */
const pdError = (status: number, error: string) =>
  reply(status, { success: false, error, error_info: 'See the docs.' });

const tokens = tokenIssuer();
/** Pipedrive's token answer names the company's own API host too. */
const tokenAnswer = () =>
  tokens.issue({
    token_type: 'Bearer',
    expires_in: 3599,
    scope: 'base,deals:full',
    api_domain: 'https://acme.pipedrive.com',
  });

/** API v2's cursor pages, two records each. */
const v2List = <T>(req: FakeRequest, all: readonly T[]) => {
  const start = Number(req.query.cursor ?? 0);
  const more = start + 2 < all.length;
  return {
    success: true,
    data: all.slice(start, start + 2),
    additional_data: { next_cursor: more ? String(start + 2) : null },
  };
};

/** API v1's `start` pages, two records each. */
const v1List = <T>(req: FakeRequest, all: readonly T[]) => {
  const start = Number(req.query.start ?? 0);
  const more = start + 2 < all.length;
  return {
    success: true,
    data: all.slice(start, start + 2),
    additional_data: {
      pagination: { start, limit: 2, more_items_in_collection: more, ...(more && { next_start: start + 2 }) },
    },
  };
};

const deals = [
  { id: 3, title: 'Big', add_time: '2026-11-01T12:03:00Z' },
  { id: 2, title: 'Medium', add_time: '2026-11-01T12:02:00Z' },
  { id: 1, title: 'Small', add_time: '2026-11-01T12:01:00Z' },
];
const persons = [1, 2, 3, 4, 5].map((id) => ({ id, name: `Person ${id}` }));

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.path === '/oauth/token' || tokens.accepts(req),
    unauthorized: pdError(401, 'unauthorized access'),
    routes: {
      'POST /oauth/token': (req) => {
        if (req.headers.authorization !== basicHeader(client.clientId, client.clientSecret).authorization) {
          return reply(401, { success: false, message: 'Invalid client credentials' });
        }
        const form = req.body as Record<string, string>;
        if (form.grant_type === 'authorization_code') {
          return form.code === 'good-code' && form.redirect_uri === TEST_REDIRECT_URI
            ? tokenAnswer()
            : reply(400, { error: 'invalid_grant', error_description: 'Invalid grant: authorization code is invalid' });
        }
        return form.refresh_token?.startsWith('refresh-')
          ? tokenAnswer()
          : reply(400, { error: 'invalid_grant', error_description: 'Invalid grant: refresh token is invalid' });
      },
      'GET /v1/users/me': () => ({ success: true, data: { id: 7, name: 'Ann Lee', company_domain: 'acme' } }),
      'GET /api/v2/deals': (req) => v2List(req, deals),
      'POST /api/v2/deals': (req) =>
        (req.body as { stage_id?: number }).stage_id === 999
          ? pdError(400, 'Stage with id 999 does not exist')
          : reply(201, { success: true, data: { id: 10, ...(req.body as object) } }),
      'POST /api/v2/activities': (req) => reply(201, { success: true, data: { id: 20, ...(req.body as object) } }),
      'POST /api/v2/persons': (req) => reply(201, { success: true, data: { id: 30, ...(req.body as object) } }),
      'POST /api/v2/organizations': (req) => reply(201, { success: true, data: { id: 40, ...(req.body as object) } }),
      'POST /v1/leads': (req) => reply(201, { success: true, data: { id: 'lead-uuid', ...(req.body as object) } }),
      'POST /v1/notes': (req) => ({ success: true, data: { id: 50, ...(req.body as object) } }),
      'GET /v1/notes': (req) => v1List(req, [{ id: 5, content: 'Hi', add_time: '2026-11-01 12:00:00' }]),
      'GET /api/v2/persons': (req) => v2List(req, persons),
      'GET /v1/leads': (req) =>
        v1List(req, [
          { id: 'l-2', title: 'Lead 2' },
          { id: 'l-1', title: 'Lead 1' },
          { id: 'l-0', title: 'Lead 0' },
        ]),
      'GET /api/v2/personFields': (req) =>
        v2List(req, [
          { field_code: 'name', field_name: 'Name', options: null },
          { field_code: 'org_id', field_name: 'Organization', options: null },
          {
            field_code: 'label_ids',
            field_name: 'Labels',
            options: [
              { id: 1, label: 'Customer' },
              { id: 2, label: 'Hot lead' },
            ],
          },
        ]),
      'POST /v1/webhooks': (req) =>
        reply(201, { status: 'ok', success: true, data: { id: 77, ...(req.body as object) } }),
      'DELETE /v1/webhooks/:id': (req) => ({ status: 'ok', success: true, data: { id: Number(req.params.id) } }),
      'GET /v1/leadLabels': () => ({ success: true, data: [{ id: 'f08b42a0', name: 'Hot', color: 'red' }] }),
    },
  });
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({
  auth: { accessToken: 'access-1', refreshToken: 'refresh-1' },
  baseUrl: vendor.url,
  authUrl: vendor.url,
  oauthClient: client,
  parameters,
});

const lastBody = (route: string) => vendor.calls(route).at(-1)?.body;

describe('pipedrive: connection', () => {
  it('sends the user to the consent page with the client id and redirect, no scopes', () => {
    if (pipedrive.auth.kind !== 'oauth2') throw new Error('Pipedrive uses OAuth2');
    const url = new URL(pipedrive.auth.authorizationUrl(client, { redirectUri: TEST_REDIRECT_URI, state: 's' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://oauth.pipedrive.com/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe('pd-client');
    expect(url.searchParams.get('redirect_uri')).toBe(TEST_REDIRECT_URI);
    expect(url.searchParams.has('scope')).toBe(false);
  });

  it('exchanges the code with the client as Basic credentials and names the user and company', async () => {
    const check = await verifyAppAuth(pipedrive, { code: 'good-code', state: 's' }, call());
    expect(check).toMatchObject({ ok: true, screenName: 'Ann Lee @ acme' });
    const exchange = vendor.calls('POST /oauth/token').at(-1);
    expect(exchange?.body).toMatchObject({ grant_type: 'authorization_code', code: 'good-code' });
    expect(exchange?.body).not.toHaveProperty('client_secret');
  });

  it("reports Pipedrive's reason for a refused code", async () => {
    expect(await verifyAppAuth(pipedrive, { code: 'old-code' }, call())).toEqual({
      ok: false,
      reason: 'Authorization failed: Invalid grant: authorization code is invalid',
    });
  });

  it('refreshes an expired access token once and retries', async () => {
    await expectOneRefresh(vendor, { token: 'POST /oauth/token', api: 'POST /api/v2/deals' }, (auth) =>
      runAppAction(pipedrive, 'createDeal', { ...call({ title: 'Renewed' }), auth }),
    );
  });
});

describe('pipedrive: actions', () => {
  it('creates a deal with API v2 types: numeric ids and value, RFC 3339 time, owner_id', async () => {
    const deal = await runAppAction(
      pipedrive,
      'createDeal',
      call({
        title: 'Big',
        value: '1500.5',
        currency: 'EUR',
        stageId: '3',
        userId: '7',
        personId: '2',
        addTime: '2026-11-01 09:30:00',
      }),
    );
    expect(deal).toMatchObject({ id: 10, title: 'Big' });
    expect(lastBody('POST /api/v2/deals')).toEqual({
      title: 'Big',
      add_time: '2026-11-01T09:30:00Z',
      stage_id: 3,
      owner_id: 7,
      person_id: 2,
      value: 1500.5,
      currency: 'EUR',
    });
  });

  it('marks a deal deleted with the flag, and refuses an id that is not a number', async () => {
    await runAppAction(pipedrive, 'createDeal', call({ title: 'Gone', status: 'deleted' }));
    expect(lastBody('POST /api/v2/deals')).toEqual({ title: 'Gone', is_deleted: true });
    await expect(runAppAction(pipedrive, 'createDeal', call({ title: 'x', stageId: 'three' }))).rejects.toMatchObject({
      name: 'InvalidParametersError',
      fields: { stageId: ['must be a numeric Pipedrive ID.'] },
    });
  });

  it("surfaces Pipedrive's error message", async () => {
    await expect(runAppAction(pipedrive, 'createDeal', call({ title: 'x', stageId: '999' }))).rejects.toThrow(
      /answered 400: Stage with id 999 does not exist/,
    );
  });

  it('creates an activity done, with its person as the primary participant', async () => {
    await runAppAction(
      pipedrive,
      'createActivity',
      call({ subject: 'Call', type: 'call', personId: '4', userId: '7', isDone: 1, dueDate: '2026-12-01' }),
    );
    expect(lastBody('POST /api/v2/activities')).toEqual({
      subject: 'Call',
      type: 'call',
      owner_id: 7,
      participants: [{ person_id: 4, primary: true }],
      done: true,
      due_date: '2026-12-01',
    });
  });

  it('creates a person with emails and phones, the first primary, and a label', async () => {
    await runAppAction(
      pipedrive,
      'createPerson',
      call({ name: 'Bo', emails: 'bo@example.com, bo@work.test', phones: '+1 555', labelId: '2' }),
    );
    expect(lastBody('POST /api/v2/persons')).toEqual({
      name: 'Bo',
      emails: [
        { value: 'bo@example.com', primary: true },
        { value: 'bo@work.test', primary: false },
      ],
      phones: [{ value: '+1 555', primary: true }],
      label_ids: [2],
    });
    await runAppAction(pipedrive, 'createOrganization', call({ name: 'Acme', ownerId: '7' }));
    expect(lastBody('POST /api/v2/organizations')).toEqual({ name: 'Acme', owner_id: 7 });
  });

  it('creates a lead for a person, with labels and a value, and wants a person or an organization', async () => {
    await runAppAction(
      pipedrive,
      'createLead',
      call({ title: 'New lead', personId: '2', labelIds: ['f08b42a0'], value: '150', currency: 'USD' }),
    );
    expect(lastBody('POST /v1/leads')).toEqual({
      title: 'New lead',
      person_id: 2,
      label_ids: ['f08b42a0'],
      value: { amount: 150, currency: 'USD' },
    });
    await expect(runAppAction(pipedrive, 'createLead', call({ title: 'Orphan' }))).rejects.toMatchObject({
      fields: { personId: ['a lead needs a person or an organization.'] },
    });
  });

  it('adds a note pinned to a deal, and wants something to attach it to', async () => {
    await runAppAction(pipedrive, 'createNote', call({ content: 'Hello', dealId: '3', pinnedDeal: 1 }));
    expect(lastBody('POST /v1/notes')).toEqual({ content: 'Hello', deal_id: 3, pinned_to_deal_flag: 1 });
    await expect(runAppAction(pipedrive, 'createNote', call({ content: 'Alone' }))).rejects.toMatchObject({
      fields: { dealId: [expect.stringContaining('a note needs')] },
    });
  });

  it('turns a 429 into a retryable failure, with its Retry-After', () =>
    expectRetryableRateLimit(vendor, () => runAppAction(pipedrive, 'createOrganization', call({ name: 'Acme' }))));
});

describe('pipedrive: polling triggers', () => {
  it('hands on the newest deals with their ids, sorted by creation', async () => {
    const store = createMemoryStore();
    const items = await runAppTrigger(pipedrive, 'newDeals', { ...call(), store });
    // One page: the fake pages by two.
    expect(items.map((item) => item.id)).toEqual(['3', '2']);
    expect(vendor.calls('GET /api/v2/deals').at(-1)?.query).toEqual({
      sort_by: 'add_time',
      sort_direction: 'desc',
      limit: '500',
    });
  });

  it('reads notes from API v1, sorted by creation', async () => {
    expect(await runAppTrigger(pipedrive, 'newNotes', call())).toEqual([
      { id: '5', data: { id: 5, content: 'Hi', add_time: '2026-11-01 12:00:00' } },
    ]);
    expect(vendor.calls('GET /v1/notes').at(-1)?.query).toEqual({ sort: 'add_time DESC', limit: '100' });
  });
});

describe('pipedrive: instant trigger', () => {
  const webhookUrl = 'https://conveyor.test/webhooks/flows/f1';
  const payload = {
    data: { id: 12, title: 'Big deal', value: 5000 },
    previous: null,
    meta: { id: '0f1e-event', action: 'create', entity: 'deal', entity_id: '12', version: '2.0' },
  };
  const delivery = (authorization: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    query: {},
    body: payload,
  });

  it('registers a v2 webhook with Basic credentials of its own, and deletes it', async () => {
    const hook = (await registerAppHook(pipedrive, 'newEvent', {
      ...call({ eventObject: 'deal', eventAction: 'create' }),
      webhookUrl,
    })) as { id: number; user: string; password: string };
    expect(hook).toEqual({ id: 77, user: 'conveyor', password: expect.stringMatching(/^[\w-]{32}$/) });
    expect(lastBody('POST /v1/webhooks')).toEqual({
      subscription_url: webhookUrl,
      event_object: 'deal',
      event_action: 'create',
      http_auth_user: 'conveyor',
      http_auth_password: hook.password,
      version: '2.0',
    });
    await unregisterAppHook(pipedrive, 'newEvent', {
      ...call({ eventObject: 'deal', eventAction: 'create' }),
      webhookUrl,
      hook,
    });
    expect(vendor.calls('DELETE /v1/webhooks/:id').at(-1)?.path).toBe('/v1/webhooks/77');
  });

  it('hands on a delivery with the credentials, the event id as its id, and refuses one without', async () => {
    const hook = { id: 77, user: 'conveyor', password: 's3cret-pass' };
    const params = call({ eventObject: 'deal', eventAction: 'create' });
    expect(
      await runAppTrigger(pipedrive, 'newEvent', {
        ...params,
        hook,
        webhook: delivery(basicHeader('conveyor', 's3cret-pass').authorization ?? ''),
      }),
    ).toEqual([{ id: '0f1e-event', data: payload }]);
    for (const authorization of [basicHeader('conveyor', 'guess').authorization ?? '', '']) {
      await expect(
        runAppTrigger(pipedrive, 'newEvent', { ...params, hook, webhook: delivery(authorization) }),
      ).rejects.toBeInstanceOf(WebhookRefusedError);
    }
  });
});

describe('pipedrive: dynamic data', () => {
  it('collects every page of persons (API v2 cursors) and leads (API v1 starts)', async () => {
    expect((await loadAppDynamicData(pipedrive, 'listPersons', call())).map((o) => o.value)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(
      vendor
        .calls('GET /api/v2/persons')
        .slice(-3)
        .map((req) => req.query.cursor),
    ).toEqual([undefined, '2', '4']);
    expect(await loadAppDynamicData(pipedrive, 'listLeads', call())).toEqual([
      { name: 'Lead 2', value: 'l-2' },
      { name: 'Lead 1', value: 'l-1' },
      { name: 'Lead 0', value: 'l-0' },
    ]);
  });

  it("lists the person label field's options, and lead labels", async () => {
    expect(await loadAppDynamicData(pipedrive, 'listPersonLabelField', call())).toEqual([
      { name: 'Customer', value: '1' },
      { name: 'Hot lead', value: '2' },
    ]);
    expect(await loadAppDynamicData(pipedrive, 'listLeadLabels', call())).toEqual([
      { name: 'Hot (red)', value: 'f08b42a0' },
    ]);
  });
});

describe('pipedrive: compatibility with Automatisch', () => {
  it('keeps the app key, triggers, and actions with their arguments', () => {
    expect(pipedrive.key).toBe('pipedrive');
    const steps = Object.fromEntries(
      [...pipedrive.manifest.triggers, ...pipedrive.manifest.actions].map((s) => [
        s.key,
        s.arguments.map((a) => a.key),
      ]),
    );
    expect(steps).toEqual({
      newActivities: [],
      newDeals: [],
      newLeads: [],
      newNotes: [],
      newEvent: ['eventObject', 'eventAction'],
      createActivity: [
        'subject',
        'organizationId',
        'userId',
        'personId',
        'dealId',
        'isDone',
        'type',
        'dueDate',
        'dueTime',
        'duration',
        'note',
      ],
      createDeal: [
        'title',
        'addTime',
        'status',
        'lostReason',
        'stageId',
        'userId',
        'organizationId',
        'personId',
        'probability',
        'expectedCloseDate',
        'value',
        'currency',
      ],
      createLead: [
        'title',
        'personId',
        'organizationId',
        'ownerId',
        'labelIds',
        'expectedCloseDate',
        'value',
        'currency',
      ],
      createNote: [
        'content',
        'dealId',
        'pinnedDeal',
        'personId',
        'pinnedPerson',
        'organizationId',
        'pinnedOrganization',
        'leadId',
        'pinnedLead',
      ],
      createOrganization: ['name', 'ownerId', 'labelId'],
      createPerson: ['name', 'ownerId', 'organizationId', 'emails', 'phones', 'labelId'],
    });
    expect(Object.keys(pipedrive.dynamicData).sort()).toEqual([
      'listActivityTypes',
      'listCurrencies',
      'listDeals',
      'listLeadLabels',
      'listLeads',
      'listOrganizationLabelField',
      'listOrganizations',
      'listPersonLabelField',
      'listPersons',
      'listStages',
      'listUsers',
    ]);
  });
});
