import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { salesforce } from '../../adapters/apps/salesforce/index.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { expectOneRefresh, expectRetryableRateLimit, tokenIssuer } from './support/vendor-checks.js';

const V = '/services/data/v62.0';

/** Salesforce's error answer: a list of `{ message, errorCode }`. */
const sfError = (status: number, message: string, errorCode: string) => reply(status, [{ message, errorCode }]);

const tokens = tokenIssuer();
/** Salesforce's token answer; a refresh answers no new refresh token. */
const tokenAnswer = (refresh: boolean, instanceUrl: string) =>
  tokens.issue({
    ...(refresh && { refresh_token: undefined }),
    ...(!refresh && { refresh_token: 'refresh-1' }),
    instance_url: instanceUrl,
    id: 'https://login.salesforce.com/id/00D/005',
    token_type: 'Bearer',
    issued_at: '1700000000000',
    signature: 'sig',
  });

const contacts = [
  {
    Id: '003C',
    Email: 'c@example.com',
    CreatedDate: '2026-11-01T12:03:00.000+0000',
    LastModifiedDate: '2026-11-01T12:30:00.000+0000',
  },
  {
    Id: '003B',
    Email: 'b@example.com',
    CreatedDate: '2026-11-01T12:02:00.000+0000',
    LastModifiedDate: '2026-11-01T12:20:00.000+0000',
  },
];

let vendor: FakeVendor;
let client: { clientId: string; clientSecret: string; oauth2Url: string };
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.path === '/services/oauth2/token' || tokens.accepts(req),
    unauthorized: sfError(401, 'Session expired or invalid', 'INVALID_SESSION_ID'),
    routes: {
      'POST /services/oauth2/token': (req, self) => {
        const form = req.body as Record<string, string>;
        if (form.client_id !== 'consumer-key' || form.client_secret !== 'consumer-secret')
          return reply(400, { error: 'invalid_client', error_description: 'invalid client credentials' });
        if (form.grant_type === 'authorization_code')
          return form.code === 'good-code' && form.redirect_uri === TEST_REDIRECT_URI
            ? tokenAnswer(false, self.url)
            : reply(400, { error: 'invalid_grant', error_description: 'authentication failure' });
        return form.refresh_token === 'refresh-1'
          ? tokenAnswer(true, self.url)
          : reply(400, { error: 'invalid_grant', error_description: 'expired access/refresh token' });
      },
      'GET /services/oauth2/userinfo': (_req, self) => ({
        name: 'Ann Lee',
        preferred_username: 'ann@acme.test',
        urls: { rest: `${self.url}/services/data/v{version}/` },
      }),
      [`GET ${V}/query`]: (req) => {
        const q = req.query.q ?? '';
        if (q.includes('Nope')) return sfError(400, "sObject type 'Nope' is not supported.", 'INVALID_TYPE');
        if (q.startsWith('SELECT FIELDS(ALL) FROM Contact WHERE Email =')) {
          return {
            totalSize: 1,
            done: true,
            records: [{ attributes: { type: 'Contact' }, Id: '003B', Email: 'b@example.com' }],
          };
        }
        if (q.includes('ORDER BY')) {
          const since = /(?:CreatedDate|LastModifiedDate) >= (\S+)/.exec(q)?.[1];
          const field = q.includes('ORDER BY CreatedDate') ? 'CreatedDate' : 'LastModifiedDate';
          const records = since
            ? contacts.filter((c) => Date.parse(c[field].replace('+0000', 'Z')) >= Date.parse(since))
            : contacts;
          return { totalSize: records.length, done: true, records };
        }
        return { totalSize: 0, done: true, records: [] };
      },
      [`POST ${V}/sobjects/:object`]: (req) =>
        reply(201, { id: req.params.object === 'Attachment' ? '00P1' : '0031', success: true, errors: [] }),
      [`PATCH ${V}/sobjects/:object/:id`]: () => reply(204),
      [`GET ${V}/sobjects`]: () => ({
        sobjects: [
          { name: 'Account', label: 'Account', queryable: true },
          { name: 'AccountHistory', label: 'Account History', queryable: false },
          { name: 'Invoice__c', label: 'Invoice', queryable: true },
        ],
      }),
      [`GET ${V}/sobjects/:object/describe`]: (req) => ({
        name: req.params.object,
        fields: [
          { name: 'Id', label: 'Record ID' },
          { name: 'Email', label: 'Email' },
        ],
      }),
    },
  });
  client = { clientId: 'consumer-key', clientSecret: 'consumer-secret', oauth2Url: `${vendor.url}/services/oauth2` };
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({
  auth: { accessToken: 'access-1', refreshToken: 'refresh-1', instanceUrl: vendor.url },
  oauthClient: client,
  parameters,
});

const lastQuery = () => vendor.calls(`GET ${V}/query`).at(-1)?.query.q;

describe('salesforce: connection', () => {
  it('sends the user to the chosen environment, production by default', () => {
    if (salesforce.auth.kind !== 'oauth2') throw new Error('Salesforce uses OAuth2');
    const production = new URL(
      salesforce.auth.authorizationUrl(
        { clientId: 'consumer-key', clientSecret: 'x' },
        { redirectUri: TEST_REDIRECT_URI, state: 's' },
      ),
    );
    expect(`${production.origin}${production.pathname}`).toBe('https://login.salesforce.com/services/oauth2/authorize');
    expect(production.searchParams.get('scope')).toBe('api id refresh_token');
    const sandbox = salesforce.auth.authorizationUrl(
      { clientId: 'k', clientSecret: 'x', oauth2Url: 'https://test.salesforce.com/services/oauth2' },
      { redirectUri: TEST_REDIRECT_URI, state: 's' },
    );
    expect(sandbox).toMatch(/^https:\/\/test\.salesforce\.com\/services\/oauth2\/authorize\?/);
  });

  it("exchanges the code, keeps the org's instance from the token answer and names the user", async () => {
    const check = await verifyAppAuth(salesforce, { code: 'good-code', state: 's' }, { oauthClient: client });
    expect(check).toMatchObject({ ok: true, screenName: `Ann Lee - ${vendor.url}` });
    if (check.ok) expect(check.credentials).toMatchObject({ instanceUrl: vendor.url, refreshToken: 'refresh-1' });
    expect(vendor.calls('GET /services/oauth2/userinfo').at(-1)?.headers.authorization).toMatch(/^Bearer access-\d+$/);
    expect(vendor.calls('POST /services/oauth2/token').at(-1)?.body).toMatchObject({
      grant_type: 'authorization_code',
    });
  });

  it("reports Salesforce's reason for a refused code", async () => {
    expect(await verifyAppAuth(salesforce, { code: 'used-code' }, { oauthClient: client })).toEqual({
      ok: false,
      reason: 'Authorization failed: authentication failure',
    });
  });

  it('refreshes an expired token on the instance', async () => {
    await expectOneRefresh(vendor, { token: 'POST /services/oauth2/token', api: `GET ${V}/query` }, (auth) =>
      runAppAction(salesforce, 'executeQuery', {
        ...call({ query: 'SELECT Id FROM Account' }),
        auth: { ...auth, instanceUrl: vendor.url },
      }),
    );
  });
});

describe('salesforce: actions', () => {
  it('finds a record by an exact value, escaped into the SOQL', async () => {
    const found = await runAppAction(
      salesforce,
      'findRecord',
      call({ object: 'Contact', field: 'Email', searchValue: "b@example.com' OR Name != '" }),
    );
    expect(found).toMatchObject({ found: true, Id: '003B' });
    expect(lastQuery()).toBe("SELECT FIELDS(ALL) FROM Contact WHERE Email = 'b@example.com\\' OR Name != \\'' LIMIT 1");
  });

  it('finds a record containing a value, its wildcards escaped, or says there is none', async () => {
    const none = await runAppAction(
      salesforce,
      'findPartiallyMatchingRecord',
      call({ object: 'Account', field: 'Name', searchValue: '50%_off' }),
    );
    expect(none).toEqual({ found: false });
    expect(lastQuery()).toBe("SELECT FIELDS(ALL) FROM Account WHERE Name LIKE '%50\\%\\_off%' LIMIT 1");
  });

  it('refuses an object or field that is not an API name', async () => {
    await expect(
      runAppAction(salesforce, 'findRecord', call({ object: 'Account WHERE', field: 'Name', searchValue: 'x' })),
    ).rejects.toMatchObject({
      name: 'InvalidParametersError',
      fields: { object: [expect.stringContaining('API name')] },
    });
  });

  it("surfaces Salesforce's error message", async () => {
    await expect(runAppAction(salesforce, 'executeQuery', call({ query: 'SELECT Id FROM Nope' }))).rejects.toThrow(
      /answered 400: sObject type 'Nope' is not supported\./,
    );
  });

  it('creates and updates records from field lists', async () => {
    expect(
      await runAppAction(
        salesforce,
        'createRecord',
        call({
          object: 'Lead',
          fields: [
            { key: 'LastName', value: 'Lee' },
            { key: 'Company', value: 'Acme' },
          ],
        }),
      ),
    ).toEqual({ id: '0031', success: true, errors: [] });
    expect(vendor.calls(`POST ${V}/sobjects/:object`).at(-1)?.body).toEqual({ LastName: 'Lee', Company: 'Acme' });
    expect(
      await runAppAction(
        salesforce,
        'updateRecord',
        call({ object: 'Lead', recordId: '00Q1', fields: [{ key: 'Status', value: 'Working' }] }),
      ),
    ).toEqual({ id: '00Q1', updated: true });
    expect(vendor.calls(`PATCH ${V}/sobjects/:object/:id`).at(-1)?.path).toBe(`${V}/sobjects/Lead/00Q1`);
  });

  it('attaches a file, encoding text as base64 when asked', async () => {
    await runAppAction(salesforce, 'createAttachment', call({ parentId: '0011', name: 'a.txt', body: 'aGk=' }));
    expect(vendor.calls(`POST ${V}/sobjects/:object`).at(-1)?.body).toEqual({
      ParentId: '0011',
      Name: 'a.txt',
      Body: 'aGk=',
    });
    await runAppAction(
      salesforce,
      'createAttachment',
      call({ parentId: '0011', name: 'a.txt', body: 'hi', bodyEncoding: 'text' }),
    );
    expect(vendor.calls(`POST ${V}/sobjects/:object`).at(-1)?.body).toMatchObject({ Body: 'aGk=' });
  });

  it('turns a 429 into a retryable failure, with its Retry-After', () =>
    expectRetryableRateLimit(vendor, () =>
      runAppAction(salesforce, 'executeQuery', call({ query: 'SELECT Id FROM Account' })),
    ));
});

describe('salesforce: polling triggers', () => {
  it('hands on a record again only when the watched field takes a new value', async () => {
    const store = createMemoryStore();
    const params = { object: 'Contact', field: 'Email' };
    const first = await runAppTrigger(salesforce, 'updatedFieldInRecords', { ...call(params), store });
    expect(first.map((item) => item.id)).toEqual(['003C-c@example.com', '003B-b@example.com']);
    expect(lastQuery()).toBe('SELECT FIELDS(ALL) FROM Contact ORDER BY LastModifiedDate DESC LIMIT 200');
    expect(await store.get('salesforce:Contact:LastModifiedDate')).toBe(Date.parse('2026-11-01T12:30:00Z'));

    contacts[1] = {
      ...contacts[1],
      Email: 'b2@example.com',
      LastModifiedDate: '2026-11-01T12:40:00.000+0000',
    } as never;
    const next = await runAppTrigger(salesforce, 'updatedFieldInRecords', { ...call(params), store });
    expect(next.map((item) => item.id)).toEqual(['003C-c@example.com', '003B-b2@example.com']);
    expect(lastQuery()).toBe(
      'SELECT FIELDS(ALL) FROM Contact WHERE LastModifiedDate >= 2026-11-01T12:25:00Z ORDER BY LastModifiedDate DESC LIMIT 200',
    );
  });

  it('hands on new records by their id', async () => {
    const items = await runAppTrigger(salesforce, 'newRecords', call({ object: 'Contact' }));
    expect(items.map((item) => item.id)).toEqual(['003C', '003B']);
    expect(lastQuery()).toBe('SELECT FIELDS(ALL) FROM Contact ORDER BY CreatedDate DESC LIMIT 200');
  });
});

describe('salesforce: dynamic data', () => {
  it('lists the queryable objects, and the fields of the chosen one', async () => {
    expect(await loadAppDynamicData(salesforce, 'listObjects', call())).toEqual([
      { name: 'Account', value: 'Account' },
      { name: 'Invoice', value: 'Invoice__c' },
    ]);
    expect(await loadAppDynamicData(salesforce, 'listFields', call({ object: 'Invoice__c' }))).toEqual([
      { name: 'Record ID', value: 'Id' },
      { name: 'Email', value: 'Email' },
    ]);
    expect(await loadAppDynamicData(salesforce, 'listFields', call())).toEqual([]);
  });
});

describe('salesforce: compatibility with Automatisch', () => {
  it('keeps the app key, the environment setting, and the triggers and actions with their arguments', () => {
    expect(salesforce.key).toBe('salesforce');
    expect(salesforce.manifest.auth.clientFields.map((field) => field.key)).toContain('oauth2Url');
    const steps = Object.fromEntries(
      [...salesforce.manifest.triggers, ...salesforce.manifest.actions].map((s) => [
        s.key,
        s.arguments.map((a) => a.key),
      ]),
    );
    expect(steps).toMatchObject({
      updatedFieldInRecords: ['object', 'field'],
      findRecord: ['object', 'field', 'searchValue'],
      findPartiallyMatchingRecord: ['object', 'field', 'searchValue'],
      createAttachment: expect.arrayContaining(['parentId', 'name', 'body']),
      executeQuery: ['query'],
    });
  });
});
