import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airtable } from '../../adapters/apps/airtable/index.js';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  loadAppDynamicData,
  loadAppDynamicFields,
  runAppAction,
  runAppTrigger,
  TEST_REDIRECT_URI,
} from '../../adapters/apps/app-harness.js';
import { createMemoryStore } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { consentUrl, stepArguments } from './support/app-steps.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

const CLIENT = { clientId: 'airtable-client', clientSecret: 'airtable-secret' };
const BASIC = `Basic ${Buffer.from('airtable-client:airtable-secret').toString('base64')}`;
const VERIFIER = 'a-pkce-verifier-of-43-characters-or-more-0123';
const valid = new Set(['airtable-access-1']);
const AUTH = { accessToken: 'airtable-access-1', refreshToken: 'airtable-refresh', tokenType: 'Bearer' };

const TABLE = {
  id: 'tblTasks',
  name: 'Tasks',
  primaryFieldId: 'fldName',
  fields: [
    { id: 'fldName', name: 'Name', type: 'singleLineText' },
    {
      id: 'fldStatus',
      name: 'Status',
      type: 'singleSelect',
      options: {
        choices: [
          { id: 'selTodo', name: 'Todo' },
          { id: 'selDone', name: 'Done' },
        ],
      },
    },
    {
      id: 'fldTags',
      name: 'Tags',
      type: 'multipleSelects',
      options: {
        choices: [
          { id: 'selA', name: 'a' },
          { id: 'selB', name: 'b' },
        ],
      },
    },
    { id: 'fldDone', name: 'Done', type: 'checkbox' },
    { id: 'fldAuto', name: 'Number', type: 'autoNumber' },
  ],
  views: [{ id: 'viwGrid', name: 'Grid view', type: 'grid' }],
};

const TABLES = { tables: [TABLE, { id: 'tblOther', name: 'Other', fields: [], views: [] }] };

const RECORDS = [
  { id: 'rec1', createdTime: '2025-01-01T00:00:00.000Z', fields: { Name: 'One' } },
  { id: 'rec3', createdTime: '2025-01-03T00:00:00.000Z', fields: { Name: 'Three' } },
  { id: 'rec2', createdTime: '2025-01-02T00:00:00.000Z', fields: { Name: "O'Brien" } },
];

/** Airtable's pages: `offset` in the answer, given back as a query parameter. */
const page = (req: FakeRequest, key: string, all: readonly unknown[], size = 2) => {
  const start = Number(req.query.offset ?? 0);
  return { [key]: all.slice(start, start + size), ...(start + size < all.length && { offset: String(start + size) }) };
};

const startAirtable = () =>
  startFakeVendor({
    authorize: (req) =>
      req.path.startsWith('/oauth2/') || valid.has(req.headers.authorization?.replace(/^Bearer /, '') ?? ''),
    unauthorized: reply(401, { error: { type: 'AUTHENTICATION_REQUIRED', message: 'Authentication required' } }),
    routes: {
      'POST /oauth2/v1/token': (req) => {
        const form = req.body as Record<string, string>;
        if (req.headers.authorization !== BASIC) {
          return reply(401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
        }
        if (form.grant_type === 'authorization_code' && form.code_verifier !== VERIFIER) {
          return reply(400, { error: 'invalid_grant', error_description: 'Invalid code verifier.' });
        }
        if (form.grant_type === 'refresh_token' && form.refresh_token === 'airtable-refresh') {
          valid.add('airtable-access-2');
          return {
            access_token: 'airtable-access-2',
            refresh_token: 'airtable-refresh-2',
            token_type: 'Bearer',
            expires_in: 3600,
          };
        }
        if (form.grant_type === 'authorization_code' && form.code === 'good-code') {
          return {
            access_token: 'airtable-access-1',
            refresh_token: 'airtable-refresh',
            token_type: 'Bearer',
            expires_in: 3600,
            scope: 'data.records:read',
          };
        }
        return reply(400, { error: 'invalid_grant', error_description: 'The authorization code is invalid.' });
      },
      'GET /meta/whoami': () => ({ id: 'usr1', email: 'ann@example.com', scopes: ['data.records:read'] }),
      'GET /meta/bases': (req) =>
        page(
          req,
          'bases',
          Array.from({ length: 5 }, (_, i) => ({
            id: `app${i + 1}`,
            name: `Base ${i + 1}`,
            permissionLevel: 'create',
          })),
        ),
      'GET /meta/bases/:base/tables': () => TABLES,
      'POST /:base/:table': (req) => {
        const { fields } = req.body as { fields: Record<string, unknown> };
        if ('Nope' in fields)
          return reply(422, { error: { type: 'UNKNOWN_FIELD_NAME', message: 'Unknown field name: "Nope"' } });
        return { id: 'recNew', createdTime: '2025-02-01T00:00:00.000Z', fields };
      },
      'PATCH /:base/:table/:record': (req) => ({
        id: req.params.record,
        fields: (req.body as { fields: object }).fields,
      }),
      'POST /:base/:table/listRecords': (req) => ({
        records: RECORDS.filter((record) =>
          String((req.body as { filterByFormula?: string }).filterByFormula).includes(
            String(record.fields.Name).replace("'", "\\'"),
          ),
        ),
      }),
      'GET /:base/:table': (req) => page(req, 'records', RECORDS),
    },
  });

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startAirtable();
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({ auth: AUTH, baseUrl: vendor.url, parameters });
const oauth = () => ({ authUrl: vendor.url, baseUrl: vendor.url, oauthClient: CLIENT });

/** A code exchanged as the console does after consent: with the verifier kept since the consent URL. */
const exchange = async (code: string, codeVerifier = VERIFIER) => {
  const catalog = createAppCatalog({
    apps: [airtable],
    allowPrivateNetworks: true,
    logger: new CapturingLogger(),
    appAddresses: { APP_BASE_URL_AIRTABLE: vendor.url, APP_AUTH_URL_AIRTABLE: vendor.url },
  });
  try {
    return await catalog.verifyCredentials(
      'airtable',
      { code, state: 's-1' },
      { client: CLIENT, redirectUri: TEST_REDIRECT_URI, codeVerifier },
    );
  } finally {
    await catalog.close();
  }
};
const lastFormula = () =>
  (vendor.calls('POST /:base/:table/listRecords').at(-1)?.body as { filterByFormula?: string } | undefined)
    ?.filterByFormula;
const inTable = (parameters: Record<string, unknown> = {}) =>
  call({ baseId: 'app1', tableId: 'tblTasks', ...parameters });

describe('airtable: connection', () => {
  it("sends the user to Airtable's consent page with Automatisch's scopes and a PKCE challenge", () => {
    const url = consentUrl(airtable, CLIENT, 's-1', VERIFIER);
    expect(`${url.origin}${url.pathname}`).toBe('https://airtable.com/oauth2/v1/authorize');
    expect(url.searchParams.get('client_id')).toBe(CLIENT.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(TEST_REDIRECT_URI);
    expect(url.searchParams.get('code_challenge')).toBe(createHash('sha256').update(VERIFIER).digest('base64url'));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')?.split(' ')).toEqual([
      'data.records:read',
      'data.records:write',
      'data.recordComments:read',
      'data.recordComments:write',
      'schema.bases:read',
      'schema.bases:write',
      'user.email:read',
      'webhook:manage',
    ]);
    expect(url.toString()).not.toContain(VERIFIER);
  });

  it('exchanges the code with its verifier and Basic client credentials, and names the account by its e-mail', async () => {
    expect(await exchange('good-code')).toMatchObject({
      ok: true,
      screenName: 'ann@example.com',
      credentials: { accessToken: 'airtable-access-1', refreshToken: 'airtable-refresh' },
    });
    expect(vendor.calls('POST /oauth2/v1/token').at(-1)?.body).toEqual({
      grant_type: 'authorization_code',
      code: 'good-code',
      redirect_uri: TEST_REDIRECT_URI,
      code_verifier: VERIFIER,
      client_id: CLIENT.clientId,
    });
  });

  it("is refused with Airtable's reason", async () => {
    expect(await exchange('old-code')).toEqual({
      ok: false,
      reason: 'Authorization failed: The authorization code is invalid.',
    });
    expect(await exchange('good-code', 'another-verifier-of-43-characters-0123456789')).toEqual({
      ok: false,
      reason: 'Authorization failed: Invalid code verifier.',
    });
  });

  it('refreshes an expired access token and goes on', async () => {
    const bases = await loadAppDynamicData(airtable, 'listBases', {
      ...oauth(),
      auth: { ...AUTH, accessToken: 'expired' },
    });
    expect(bases).toHaveLength(5);
    expect(vendor.calls('POST /oauth2/v1/token').at(-1)?.body).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'airtable-refresh',
    });
    expect(vendor.calls('GET /meta/bases').at(-1)?.headers.authorization).toBe('Bearer airtable-access-2');
  });
});

describe("airtable: Automatisch's keys", () => {
  it('keeps the app, client, action, argument, dynamic data and dynamic fields keys', () => {
    expect(airtable.key).toBe('airtable');
    expect(airtable.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(stepArguments(airtable)).toMatchObject({
      createRecord: ['baseId', 'tableId'],
      findRecord: ['baseId', 'tableId', 'tableField', 'searchValue', 'exactMatch', 'searchFormula', 'limitToView'],
    });
    expect(airtable.manifest.actions.find((action) => action.key === 'createRecord')?.dynamicFieldsKey).toBe(
      'listFields',
    );
    expect(Object.keys(airtable.dynamicData).sort()).toEqual([
      'listBases',
      'listTableFields',
      'listTableViews',
      'listTables',
    ]);
    expect(Object.keys(airtable.dynamicFields)).toEqual(['listFields']);
  });
});

describe('airtable: actions', () => {
  it("offers the table's writable fields by name, as Automatisch does", async () => {
    const fields = await loadAppDynamicFields(airtable, 'listFields', inTable());
    expect(fields.map((field) => [field.key, field.type])).toEqual([
      ['Name', 'string'],
      ['Status', 'dropdown'],
      ['Tags', 'json'],
      ['Done', 'dropdown'],
    ]);
    expect(fields[1]?.options).toEqual([
      { label: 'Todo', value: 'selTodo' },
      { label: 'Done', value: 'selDone' },
    ]);
    expect(await loadAppDynamicFields(airtable, 'listFields', call({ baseId: 'app1' }))).toEqual([]);
  });

  it("creates a record from Automatisch's field values, with typecast", async () => {
    const record = await runAppAction(
      airtable,
      'createRecord',
      inTable({ Name: 'Ship', Status: 'selDone', Tags: [{ value: 'selA' }, { value: '' }], Done: 'true', Number: '7' }),
    );
    const sent = vendor.calls('POST /:base/:table').at(-1);
    expect(sent?.path).toBe('/app1/tblTasks');
    expect(sent?.body).toEqual({
      fields: { Name: 'Ship', Status: 'selDone', Tags: ['selA'], Done: true },
      typecast: true,
    });
    expect(record).toMatchObject({ id: 'recNew', fields: { Name: 'Ship' } });
  });

  it("refuses a value its field cannot take, and fails with Airtable's message", async () => {
    await expect(runAppAction(airtable, 'createRecord', inTable({ Status: 'selGone' }))).rejects.toMatchObject({
      fields: { Status: ['must be one of: selTodo, selDone.'] },
    });
    vendor.route('GET /meta/bases/:base/tables', () => ({
      tables: [{ ...TABLE, fields: [...TABLE.fields, { id: 'fldNope', name: 'Nope', type: 'singleLineText' }] }],
    }));
    await expect(runAppAction(airtable, 'createRecord', inTable({ Nope: 'x' }))).rejects.toThrow(
      /422: Unknown field name: "Nope"/,
    );
    vendor.route('GET /meta/bases/:base/tables', () => TABLES);
  });

  it('updates the fields given of a record', async () => {
    await runAppAction(airtable, 'updateRecord', inTable({ recordId: 'rec1', Status: 'selTodo' }));
    const sent = vendor.calls('PATCH /:base/:table/:record').at(-1);
    expect(sent?.path).toBe('/app1/tblTasks/rec1');
    expect(sent?.body).toEqual({ fields: { Status: 'selTodo' }, typecast: true });
  });

  it('finds records by a field, quoting the value, with or without case', async () => {
    const found = await runAppAction(
      airtable,
      'findRecord',
      inTable({ tableField: 'Name', searchValue: "O'Brien", limitToView: 'viwGrid' }),
    );
    expect(vendor.calls('POST /:base/:table/listRecords').at(-1)?.body).toEqual({
      filterByFormula: "{Name} = 'O\\'Brien'",
      view: 'viwGrid',
      pageSize: 100,
      maxRecords: 100,
    });
    expect(found).toEqual({ records: [RECORDS[2]] });
    await runAppAction(
      airtable,
      'findRecord',
      inTable({ tableField: 'Name', searchValue: 'one', exactMatch: 'false' }),
    );
    expect(lastFormula()).toBe("LOWER({Name}) = LOWER('one')");
    await runAppAction(airtable, 'findRecord', inTable({ searchFormula: '{Done}' }));
    expect(lastFormula()).toBe('{Done}');
  });

  it('asks for a field or a formula', async () => {
    await expect(runAppAction(airtable, 'findRecord', inTable())).rejects.toMatchObject({
      fields: { tableField: ['choose a field to search by, or write a formula.'] },
    });
  });

  it("turns Airtable's rate limit into a retryable failure", async () => {
    const outcome = await rateLimitedOutcome(airtable, vendor, {
      key: 'findRecord',
      parameters: { baseId: 'app1', tableId: 'tblTasks', searchFormula: '{Done}' },
      credentials: AUTH,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('airtable: polling triggers', () => {
  it('hand records created since the last poll (less a margin), newest first, every page', async () => {
    const store = createMemoryStore();
    const before = Date.now();
    const items = await runAppTrigger(airtable, 'newRecord', { ...inTable(), store });
    expect(items.map((item) => item.id)).toEqual(['rec3', 'rec2', 'rec1']);
    const first = vendor.calls('GET /:base/:table').at(-2)?.query.filterByFormula ?? '';
    const since = Date.parse(/DATETIME_PARSE\('([^']+)'\)/.exec(first)?.[1] ?? '');
    // The first poll looks an hour and ten minutes back; the next ten minutes before this poll.
    expect(before - since).toBeLessThanOrEqual(70 * 60 * 1000);
    expect(before - since).toBeGreaterThan(69 * 60 * 1000);
    await runAppTrigger(airtable, 'newRecord', { ...inTable(), store });
    const next = vendor.calls('GET /:base/:table').at(-1)?.query.filterByFormula ?? '';
    const nextSince = Date.parse(/DATETIME_PARSE\('([^']+)'\)/.exec(next)?.[1] ?? '');
    expect(nextSince).toBeGreaterThanOrEqual(before - 10 * 60 * 1000);
    expect(nextSince).toBeLessThan(Date.now() - 9 * 60 * 1000);
  });

  it('hand the records of a view', async () => {
    const items = await runAppTrigger(airtable, 'newRecordInView', inTable({ viewId: 'viwGrid' }));
    expect(items.map((item) => item.id)).toEqual(['rec3', 'rec2', 'rec1']);
    expect(vendor.calls('GET /:base/:table').at(-1)?.query).toEqual({ view: 'viwGrid', pageSize: '100', offset: '2' });
  });
});

describe('airtable: dynamic data', () => {
  it('collects every page of bases', async () => {
    const bases = await loadAppDynamicData(airtable, 'listBases', call());
    expect(bases.map((base) => base.value)).toEqual(['app1', 'app2', 'app3', 'app4', 'app5']);
  });

  it("lists a base's tables, and a table's fields by name and views", async () => {
    expect(await loadAppDynamicData(airtable, 'listTables', call({ baseId: 'app1' }))).toEqual([
      { name: 'Tasks', value: 'tblTasks' },
      { name: 'Other', value: 'tblOther' },
    ]);
    expect((await loadAppDynamicData(airtable, 'listTableFields', inTable())).map((field) => field.value)).toEqual([
      'Name',
      'Status',
      'Tags',
      'Done',
      'Number',
    ]);
    expect(await loadAppDynamicData(airtable, 'listTableViews', inTable())).toEqual([
      { name: 'Grid view', value: 'viwGrid' },
    ]);
    expect(await loadAppDynamicData(airtable, 'listTables', call())).toEqual([]);
  });
});
