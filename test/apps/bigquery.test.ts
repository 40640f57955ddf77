import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { bigquery, bigqueryServiceAccount } from '../../adapters/apps/bigquery/index.js';
import type { FakeRequest } from '../support/fake-vendor.js';
import {
  describeGoogleConnection,
  describeServiceAccount,
  type FakeGoogle,
  googleError,
  startFakeGoogle,
} from './support/google-common-fake.js';

const V2 = '/bigquery/v2';

const SCHEMA = {
  fields: [
    { name: 'id', type: 'INTEGER', mode: 'REQUIRED' },
    { name: 'email', type: 'STRING' },
    { name: 'amount', type: 'FLOAT' },
    { name: 'paid', type: 'BOOLEAN' },
    { name: 'created_at', type: 'TIMESTAMP' },
    { name: 'tags', type: 'STRING', mode: 'REPEATED' },
    { name: 'address', type: 'RECORD', fields: [{ name: 'city', type: 'STRING' }] },
  ],
};

/** A row as BigQuery's REST API answers it: every cell `{ v }`, numbers and times as text. */
const apiRow = (id: number) => ({
  f: [
    { v: String(id) },
    { v: `c${id}@example.com` },
    { v: '12.5' },
    { v: 'true' },
    { v: '1.7145792E9' },
    { v: [{ v: 'vip' }, { v: 'eu' }] },
    { v: { f: [{ v: 'Lyon' }] } },
  ],
});

const PROJECTS = Array.from({ length: 3 }, (_, i) => ({
  kind: 'bigquery#project',
  id: `proj-${i}`,
  friendlyName: `Project ${i}`,
  projectReference: { projectId: `proj-${i}` },
}));
const TABLES = [
  {
    tableReference: { projectId: 'proj-0', datasetId: 'sales', tableId: 'payments' },
    type: 'TABLE',
    creationTime: '1700000000000',
  },
  {
    tableReference: { projectId: 'proj-0', datasetId: 'sales', tableId: 'refunds' },
    type: 'TABLE',
    creationTime: '1710000000000',
  },
  {
    tableReference: { projectId: 'proj-0', datasetId: 'sales', tableId: 'daily' },
    type: 'VIEW',
    creationTime: '1705000000000',
  },
];

let google: FakeGoogle;
/** How many times getQueryResults answers "not done yet" before the rows. */
let pendingPolls: number;

const paged = <T>(req: FakeRequest, entries: readonly T[], field: string) => {
  const start = Number(req.query.pageToken ?? 0);
  const next = start + 2 < entries.length ? String(start + 2) : undefined;
  return { [field]: entries.slice(start, start + 2), ...(next && { nextPageToken: next }) };
};

const results = (jobId: string) => ({
  kind: 'bigquery#queryResponse',
  jobComplete: true,
  jobReference: { projectId: 'proj-0', jobId, location: 'EU' },
  schema: SCHEMA,
  rows: [apiRow(7), apiRow(5)],
  totalRows: '2',
  totalBytesProcessed: '2048',
});

beforeAll(async () => {
  google = await startFakeGoogle({
    [`GET ${V2}/projects`]: (req) => paged(req, PROJECTS, 'projects'),
    [`GET ${V2}/projects/:p/datasets`]: () => ({
      datasets: [{ datasetReference: { projectId: 'proj-0', datasetId: 'sales' } }],
    }),
    [`GET ${V2}/projects/:p/datasets/:d/tables`]: (req) =>
      req.params.d === 'sales'
        ? { ...paged(req, TABLES, 'tables'), totalItems: TABLES.length }
        : googleError(404, 'Not found: Dataset proj-0:nope', 'NOT_FOUND', 'notFound'),
    [`GET ${V2}/projects/:p/datasets/:d/tables/:t`]: () => ({ kind: 'bigquery#table', schema: SCHEMA }),
    [`POST ${V2}/projects/:p/datasets/:d/tables/:t/insertAll`]: (req) => {
      const { rows, skipInvalidRows } = req.body as {
        rows: { json: Record<string, unknown> }[];
        skipInvalidRows: boolean;
      };
      const bad = rows.findIndex((row) => typeof row.json.id !== 'number');
      if (bad < 0) return { kind: 'bigquery#tableDataInsertAllResponse' };
      const invalid = { reason: 'invalid', location: 'id', message: 'Cannot convert value to integer (bad value): x' };
      // Skipping invalid rows, BigQuery inserts the others and reports the invalid ones only.
      if (skipInvalidRows)
        return { kind: 'bigquery#tableDataInsertAllResponse', insertErrors: [{ index: bad, errors: [invalid] }] };
      return {
        kind: 'bigquery#tableDataInsertAllResponse',
        insertErrors: rows.map((_, index) => ({
          index,
          errors: [index === bad ? invalid : { reason: 'stopped', location: '', message: '' }],
        })),
      };
    },
    [`POST ${V2}/projects/:p/queries`]: (req) => {
      const { query } = req.body as { query: string };
      if (query.includes('syntax error')) {
        return googleError(
          400,
          'Syntax error: Unexpected identifier "syntax" at [1:1]',
          'INVALID_ARGUMENT',
          'invalidQuery',
        );
      }
      if (pendingPolls > 0)
        return {
          kind: 'bigquery#queryResponse',
          jobComplete: false,
          jobReference: { projectId: 'proj-0', jobId: 'job_slow', location: 'EU' },
        };
      return results('job_1');
    },
    [`GET ${V2}/projects/:p/queries/:jobId`]: (req) => {
      if (pendingPolls > 1) {
        pendingPolls -= 1;
        return { jobComplete: false, jobReference: { projectId: 'proj-0', jobId: req.params.jobId, location: 'EU' } };
      }
      pendingPolls = 0;
      return results(req.params.jobId ?? '');
    },
  });
});
afterAll(() => google.close());
beforeEach(() => {
  pendingPolls = 0;
});

const tableOf = { projectId: 'proj-0', datasetId: 'sales', tableId: 'payments' };

const ROW_7 = {
  id: '7',
  email: 'c7@example.com',
  amount: 12.5,
  paid: true,
  created_at: '2024-05-01T16:00:00.000Z',
  tags: ['vip', 'eu'],
  address: { city: 'Lyon' },
};

describe('bigquery: keys', () => {
  it('app, connection, triggers and actions with their arguments', () => {
    const steps = (items: readonly { key: string; arguments: readonly { key: string }[] }[]) =>
      Object.fromEntries(items.map((step) => [step.key, step.arguments.map((argument) => argument.key)]));
    expect(bigquery.key).toBe('bigquery');
    expect(steps(bigquery.manifest.triggers)).toEqual({
      newRows: ['projectId', 'datasetId', 'tableId', 'orderColumn'],
      newTables: ['projectId', 'datasetId'],
    });
    expect(steps(bigquery.manifest.actions)).toEqual({
      insertRows: ['projectId', 'datasetId', 'tableId', 'rows', 'skipInvalidRows', 'ignoreUnknownValues'],
      runQuery: ['projectId', 'query', 'queryParameters', 'maxResults', 'location'],
    });
  });
});

describeGoogleConnection(() => ({
  app: bigquery,
  google,
  scopes: ['https://www.googleapis.com/auth/bigquery'],
  refreshedBy: {
    kind: 'trigger',
    key: 'newTables',
    parameters: { projectId: 'proj-0', datasetId: 'sales' },
    route: `GET ${V2}/projects/:p/datasets/:d/tables`,
  },
}));

describeServiceAccount(() => ({
  app: bigqueryServiceAccount,
  google,
  scopes: ['https://www.googleapis.com/auth/bigquery'],
  step: {
    kind: 'action',
    key: 'runQuery',
    parameters: { projectId: 'proj-0', query: 'SELECT 1' },
    route: `POST ${V2}/projects/:p/queries`,
  },
}));

describe('bigquery-service-account', () => {
  it('has the steps and dynamic data of bigquery, under its own key', () => {
    expect(bigqueryServiceAccount.key).toBe('bigquery-service-account');
    expect(bigqueryServiceAccount.manifest.triggers).toEqual(bigquery.manifest.triggers);
    expect(bigqueryServiceAccount.manifest.actions).toEqual(bigquery.manifest.actions);
  });
});

describe('bigquery: actions', () => {
  it('streams rows with insert ids made from the step, so that a retried step inserts once', async () => {
    const output = await runAppAction(
      bigquery,
      'insertRows',
      google.call({ ...tableOf, rows: '[{"id": 1}, {"id": 2}]' }),
    );
    expect(output).toEqual({ insertedRows: 2, insertErrors: [] });
    const sent = google.vendor.calls(`POST ${V2}/projects/:p/datasets/:d/tables/:t/insertAll`).at(-1);
    expect(sent?.path).toBe(`${V2}/projects/proj-0/datasets/sales/tables/payments/insertAll`);
    const body = sent?.body as { rows: { insertId: string; json: unknown }[]; skipInvalidRows: boolean };
    expect(body.skipInvalidRows).toBe(false);
    expect(body.rows.map((row) => row.json)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(body.rows[0]?.insertId).toMatch(/^[0-9a-f]{64}-0$/);
    await runAppAction(bigquery, 'insertRows', google.call({ ...tableOf, rows: { id: 1 } }));
    const again = google.vendor.calls(`POST ${V2}/projects/:p/datasets/:d/tables/:t/insertAll`).at(-1)
      ?.body as typeof body;
    expect(again.rows[0]?.insertId).toBe(body.rows[0]?.insertId);
  });

  it("fails with BigQuery's reason for the invalid row, or keeps the valid ones when asked", async () => {
    await expect(
      runAppAction(bigquery, 'insertRows', google.call({ ...tableOf, rows: [{ id: 1 }, { id: 'x' }] })),
    ).rejects.toThrow('BigQuery refused the rows: row 1, id: Cannot convert value to integer (bad value): x.');
    const kept = await runAppAction(
      bigquery,
      'insertRows',
      google.call({ ...tableOf, rows: [{ id: 1 }, { id: 'x' }], skipInvalidRows: true }),
    );
    expect(kept).toMatchObject({ insertedRows: 1, insertErrors: [{ index: 1 }] });
    await expect(runAppAction(bigquery, 'insertRows', google.call({ ...tableOf, rows: '[]' }))).rejects.toMatchObject({
      fields: { rows: ['must hold at least one row.'] },
    });
  });

  it('runs a query with named parameters and a request id, and answers its rows typed by the schema', async () => {
    const output = await runAppAction(
      bigquery,
      'runQuery',
      google.call({
        projectId: 'proj-0',
        query: 'SELECT * FROM sales.payments WHERE email = @email',
        queryParameters: [{ key: 'email', value: 'c7@example.com' }],
      }),
    );
    expect(output).toEqual({
      rows: [ROW_7, { ...ROW_7, id: '5', email: 'c5@example.com' }],
      totalRows: 2,
      jobId: 'job_1',
      totalBytesProcessed: '2048',
    });
    expect(google.vendor.calls(`POST ${V2}/projects/:p/queries`).at(-1)?.body).toEqual({
      useLegacySql: false,
      timeoutMs: 10_000,
      query: 'SELECT * FROM sales.payments WHERE email = @email',
      maxResults: 1000,
      parameterMode: 'NAMED',
      queryParameters: [
        { name: 'email', parameterType: { type: 'STRING' }, parameterValue: { value: 'c7@example.com' } },
      ],
      requestId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    });
  });

  it("waits for a query BigQuery has not finished, and fails with BigQuery's message", async () => {
    pendingPolls = 2;
    const output = await runAppAction(bigquery, 'runQuery', google.call({ projectId: 'proj-0', query: 'SELECT 1' }));
    expect(output).toMatchObject({ jobId: 'job_slow', totalRows: 2 });
    expect(
      google.vendor
        .calls(`GET ${V2}/projects/:p/queries/:jobId`)
        .slice(-2)
        .map((r) => r.query),
    ).toEqual([
      { timeoutMs: '10000', maxResults: '1000', location: 'EU' },
      { timeoutMs: '10000', maxResults: '1000', location: 'EU' },
    ]);
    await expect(
      runAppAction(bigquery, 'runQuery', google.call({ projectId: 'proj-0', query: 'syntax error' })),
    ).rejects.toThrow(/answered 400: Syntax error: Unexpected identifier/);
  });
});

describe('bigquery: triggers', () => {
  it('newRows: the highest rows by the ordering column, quoted, by its value', async () => {
    const items = await runAppTrigger(bigquery, 'newRows', google.call({ ...tableOf, orderColumn: 'id' }));
    expect(items.map((item) => item.id)).toEqual(['7', '5']);
    expect(items[0]?.data).toEqual(ROW_7);
    expect(google.vendor.calls(`POST ${V2}/projects/:p/queries`).at(-1)?.body).toMatchObject({
      query: 'SELECT * FROM `proj-0.sales.payments` ORDER BY `id` DESC LIMIT 100',
    });
    await expect(
      runAppTrigger(bigquery, 'newRows', google.call({ ...tableOf, orderColumn: 'id` DESC; --' })),
    ).rejects.toThrow(/is not a BigQuery name/);
  });

  it("newTables: every page of the dataset's tables, newest first, by table id", async () => {
    const items = await runAppTrigger(bigquery, 'newTables', google.call({ projectId: 'proj-0', datasetId: 'sales' }));
    expect(items.map((item) => item.id)).toEqual(['refunds', 'daily', 'payments']);
    await expect(
      runAppTrigger(bigquery, 'newTables', google.call({ projectId: 'proj-0', datasetId: 'nope' })),
    ).rejects.toThrow(/Not found: Dataset proj-0:nope/);
  });
});

describe('bigquery: dynamic data', () => {
  it('lists every page of projects, then datasets, tables and columns of the choices before', async () => {
    expect(await loadAppDynamicData(bigquery, 'listProjects', google.call())).toEqual(
      PROJECTS.map((entry) => ({ name: entry.friendlyName, value: entry.id })),
    );
    expect(await loadAppDynamicData(bigquery, 'listDatasets', google.call({ projectId: 'proj-0' }))).toEqual([
      { name: 'sales', value: 'sales' },
    ]);
    expect(await loadAppDynamicData(bigquery, 'listDatasets', google.call())).toEqual([]);
    expect(
      (await loadAppDynamicData(bigquery, 'listTables', google.call({ projectId: 'proj-0', datasetId: 'sales' }))).map(
        (t) => t.value,
      ),
    ).toEqual(['payments', 'refunds', 'daily']);
    expect((await loadAppDynamicData(bigquery, 'listColumns', google.call(tableOf))).slice(0, 2)).toEqual([
      { name: 'id (INTEGER)', value: 'id' },
      { name: 'email (STRING)', value: 'email' },
    ]);
  });
});
