import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { hubspot } from '../../adapters/apps/hubspot/index.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { expectOneRefresh, expectRetryableRateLimit, tokenIssuer } from './support/vendor-checks.js';

const client = { clientId: 'hub-client', clientSecret: 'hub-secret' };

/** HubSpot's error answer. */
const hubspotError = (status: number, message: string, category: string) =>
  reply(status, { status: 'error', message, correlationId: 'c0ffee', category });

const contacts = Array.from({ length: 3 }, (_, i) => ({
  id: String(103 - i),
  properties: { createdate: new Date(Date.UTC(2026, 10, 1, 12, 3 - i)).toISOString(), email: `c${3 - i}@example.com` },
}));

const tokens = tokenIssuer();

/** The search API: filters on createdate GTE, newest first, two per page with `after` cursors. */
const search = (req: FakeRequest, all: typeof contacts) => {
  const body = req.body as {
    filterGroups: { filters: { propertyName: string; operator: string; value: string }[] }[];
    after?: string;
  };
  const since = body.filterGroups[0]?.filters[0]?.value;
  const matching = since ? all.filter((c) => Date.parse(c.properties.createdate) >= Number(since)) : all;
  const start = Number(body.after ?? 0);
  const results = matching.slice(start, start + 2);
  const more = start + 2 < matching.length;
  return { total: matching.length, results, ...(more && { paging: { next: { after: String(start + 2) } } }) };
};

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.path.startsWith('/oauth/') || tokens.accepts(req),
    unauthorized: hubspotError(401, 'Authentication credentials not found.', 'INVALID_AUTHENTICATION'),
    routes: {
      'POST /oauth/v3/token': (req) => {
        const form = req.body as Record<string, string>;
        if (form.client_id !== client.clientId || form.client_secret !== client.clientSecret) {
          return reply(400, { status: 'BAD_CLIENT_ID', message: 'missing or unknown client id' });
        }
        if (form.grant_type === 'authorization_code') {
          if (form.code !== 'good-code' || form.redirect_uri !== TEST_REDIRECT_URI) {
            return reply(400, { status: 'BAD_AUTH_CODE', message: 'missing or unknown auth code' });
          }
          return tokens.issue({ expires_in: 1800, token_type: 'bearer' });
        }
        if (form.grant_type === 'refresh_token' && form.refresh_token?.startsWith('refresh-'))
          return tokens.issue({ expires_in: 1800, token_type: 'bearer' });
        return reply(400, { status: 'BAD_REFRESH_TOKEN', message: 'missing or unknown refresh token' });
      },
      'GET /account-info/v3/details': () => ({ portalId: 62515, portalName: 'Acme Inc', uiDomain: 'app.hubspot.com' }),
      'POST /crm/v3/objects/contacts': (req) => reply(201, { id: '501', ...(req.body as object) }),
      'PATCH /crm/v3/objects/contacts/:id': (req) =>
        req.params.id === '404404'
          ? hubspotError(404, 'Object not found.  objectId are usually numeric.', 'OBJECT_NOT_FOUND')
          : { id: req.params.id, ...(req.body as object) },
      'GET /crm/v3/objects/contacts/:id': (req) =>
        req.params.id === 'c2@example.com'
          ? { id: '102', properties: { email: 'c2@example.com' } }
          : hubspotError(404, 'Object not found.', 'OBJECT_NOT_FOUND'),
      'POST /crm/v3/objects/contacts/search': (req) => search(req, contacts),
      'POST /crm/v3/objects/deals': (req) => reply(201, { id: '701', ...(req.body as object) }),
      'POST /crm/v3/objects/companies': (req) => reply(201, { id: '801', ...(req.body as object) }),
      'GET /crm/v3/owners': (req) =>
        req.query.after === undefined
          ? {
              results: [{ id: '1', email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee' }],
              paging: { next: { after: 'p2' } },
            }
          : { results: [{ id: '2', email: 'bob@example.com' }] },
      'GET /crm/v3/pipelines/deals': () => ({ results: [{ id: 'default', label: 'Sales Pipeline', stages: [] }] }),
      'GET /crm/v3/pipelines/deals/:id/stages': (req) => ({
        results: [
          { id: 'appointmentscheduled', label: `Appointment (${req.params.id})` },
          { id: 'closedwon', label: 'Closed won' },
        ],
      }),
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

describe('hubspot: connection', () => {
  it('sends the user to the consent page with the client id, redirect and scopes', () => {
    if (hubspot.auth.kind !== 'oauth2') throw new Error('HubSpot uses OAuth2');
    const url = new URL(hubspot.auth.authorizationUrl(client, { redirectUri: TEST_REDIRECT_URI, state: 's1' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://app.hubspot.com/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe('hub-client');
    expect(url.searchParams.get('redirect_uri')).toBe(TEST_REDIRECT_URI);
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining([
        'oauth',
        'crm.objects.contacts.write',
        'crm.objects.deals.write',
        'crm.objects.owners.read',
      ]),
    );
  });

  it('exchanges the code at the v3 token endpoint and names the account', async () => {
    const check = await verifyAppAuth(
      hubspot,
      { code: 'good-code', state: 's1' },
      { authUrl: vendor.url, baseUrl: vendor.url, oauthClient: client },
    );
    expect(check).toMatchObject({ ok: true, screenName: 'Acme Inc' });
    if (check.ok) expect(check.credentials).toMatchObject({ accessToken: expect.stringMatching(/^access-/) });
    expect(vendor.calls('POST /oauth/v3/token').at(-1)?.body).toMatchObject({
      grant_type: 'authorization_code',
      code: 'good-code',
      client_secret: 'hub-secret',
    });
  });

  it("reports HubSpot's reason for a refused code", async () => {
    const check = await verifyAppAuth(
      hubspot,
      { code: 'stale-code' },
      { authUrl: vendor.url, baseUrl: vendor.url, oauthClient: client },
    );
    expect(check).toEqual({ ok: false, reason: 'Authorization failed: missing or unknown auth code' });
  });

  it('refreshes an expired access token once and retries', async () => {
    await expectOneRefresh(vendor, { token: 'POST /oauth/v3/token', api: 'POST /crm/v3/objects/contacts' }, (auth) =>
      runAppAction(hubspot, 'createContact', { ...call({ email: 'x@example.com' }), auth }),
    );
  });
});

describe('hubspot: actions', () => {
  it('creates a contact with HubSpot property names, leaving out what was not given', async () => {
    const output = await runAppAction(
      hubspot,
      'createContact',
      call({ email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee', hubspotOwnerId: '1' }),
    );
    expect(output).toMatchObject({ id: '501' });
    expect(vendor.calls('POST /crm/v3/objects/contacts').at(-1)?.body).toEqual({
      properties: { email: 'ann@example.com', firstname: 'Ann', lastname: 'Lee', hubspot_owner_id: '1' },
    });
  });

  it('updates only the given properties of a contact', async () => {
    await runAppAction(hubspot, 'updateContact', call({ contactId: '101', phone: '+1 555' }));
    const sent = vendor.calls('PATCH /crm/v3/objects/contacts/:id').at(-1);
    expect(sent?.path).toBe('/crm/v3/objects/contacts/101');
    expect(sent?.body).toEqual({ properties: { phone: '+1 555' } });
  });

  it("surfaces HubSpot's error message", async () => {
    await expect(runAppAction(hubspot, 'updateContact', call({ contactId: '404404', phone: '1' }))).rejects.toThrow(
      /answered 404: Object not found/,
    );
  });

  it('finds a contact by email, or says there is none', async () => {
    expect(await runAppAction(hubspot, 'findContact', call({ email: 'c2@example.com' }))).toMatchObject({
      found: true,
      id: '102',
    });
    expect(vendor.calls('GET /crm/v3/objects/contacts/:id').at(-1)?.query.idProperty).toBe('email');
    expect(await runAppAction(hubspot, 'findContact', call({ email: 'none@example.com' }))).toEqual({ found: false });
  });

  it('creates a deal in a stage, and a company', async () => {
    await runAppAction(
      hubspot,
      'createDeal',
      call({ dealName: 'Big one', pipeline: 'default', dealStage: 'closedwon', amount: '1200' }),
    );
    expect(vendor.calls('POST /crm/v3/objects/deals').at(-1)?.body).toEqual({
      properties: { dealname: 'Big one', pipeline: 'default', dealstage: 'closedwon', amount: '1200' },
    });
    expect(await runAppAction(hubspot, 'createCompany', call({ name: 'Acme', domain: 'acme.test' }))).toMatchObject({
      id: '801',
    });
  });

  it('turns a 429 into a retryable failure, with its Retry-After', () =>
    expectRetryableRateLimit(vendor, () => runAppAction(hubspot, 'createCompany', call({ name: 'Acme' }))));
});

describe('hubspot: polling triggers', () => {
  it('hands on new contacts newest first, then those created since the newest seen, every page', async () => {
    const store = createMemoryStore();
    const first = await runAppTrigger(hubspot, 'newContacts', { ...call(), store });
    // The first poll reads one page: enough to learn what exists.
    expect(first.map((item) => item.id)).toEqual(['103', '102']);
    const sent = vendor.calls('POST /crm/v3/objects/contacts/search').at(-1)?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ sorts: [{ propertyName: 'createdate', direction: 'DESCENDING' }], filterGroups: [] });
    expect(await store.get('hubspot:contacts:createdSince')).toBe(Date.UTC(2026, 10, 1, 12, 3));

    contacts.unshift({ id: '104', properties: { createdate: '2026-11-01T12:10:00.000Z', email: 'c4@example.com' } });
    const next = await runAppTrigger(hubspot, 'newContacts', { ...call(), store });
    expect(next.map((item) => item.id)).toEqual(['104', '103', '102', '101']);
    expect(next[0]?.data).toMatchObject({ properties: { email: 'c4@example.com' } });
    expect(vendor.calls('POST /crm/v3/objects/contacts/search').at(-1)?.body).toMatchObject({
      filterGroups: [
        { filters: [{ propertyName: 'createdate', operator: 'GTE', value: String(Date.UTC(2026, 10, 1, 11, 58)) }] },
      ],
    });
  });
});

describe('hubspot: dynamic data', () => {
  it('lists every page of owners', async () => {
    expect(await loadAppDynamicData(hubspot, 'listOwners', call())).toEqual([
      { name: 'Ann Lee (ann@example.com)', value: '1' },
      { name: 'bob@example.com', value: '2' },
    ]);
    expect(vendor.calls('GET /crm/v3/owners').at(-1)?.query.after).toBe('p2');
  });

  it("lists pipelines, and the chosen pipeline's stages", async () => {
    expect(await loadAppDynamicData(hubspot, 'listPipelines', call())).toEqual([
      { name: 'Sales Pipeline', value: 'default' },
    ]);
    expect(await loadAppDynamicData(hubspot, 'listDealStages', call({ pipeline: 'default' }))).toEqual([
      { name: 'Appointment (default)', value: 'appointmentscheduled' },
      { name: 'Closed won', value: 'closedwon' },
    ]);
    expect(await loadAppDynamicData(hubspot, 'listDealStages', call())).toEqual([]);
  });
});

describe('hubspot: compatibility with Automatisch', () => {
  it('keeps the app key, the client settings and the actions with their arguments', () => {
    expect(hubspot.key).toBe('hubspot');
    expect(hubspot.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    const actions = Object.fromEntries(hubspot.manifest.actions.map((a) => [a.key, a.arguments.map((x) => x.key)]));
    const contact = ['company', 'email', 'firstName', 'lastName', 'phone', 'website', 'hubspotOwnerId'];
    expect(actions.createContact).toEqual(contact);
    expect(actions.updateContact).toEqual(['contactId', ...contact]);
  });
});
