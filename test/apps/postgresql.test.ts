import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { TemporaryError } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const url = process.env.TEST_DATABASE_URL;

describe('postgresql: connection fields', () => {
  const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
  afterAll(() => catalog.close());

  it('need host, database and user; the port defaults to 5432', () => {
    expect(catalog.parseAuthFields('postgresql', { port: 'x' })).toEqual({
      ok: false,
      fields: {
        host: ['is required.'],
        port: ['must be a number.'],
        database: ['is required.'],
        user: ['is required.'],
      },
    });
    expect(catalog.parseAuthFields('postgresql', { host: 'db', database: 'app', user: 'me' })).toEqual({
      ok: true,
      value: { host: 'db', port: 5432, database: 'app', user: 'me', ssl: false },
    });
  });

  it('refuse to reach loopback unless the instance allows private networks', async () => {
    const check = await catalog.verifyCredentials(
      'postgresql',
      { host: '127.0.0.1', port: 5432, database: 'test', user: 'postgres', password: 'hunter22', ssl: false },
      null,
    );
    expect(check).toEqual({
      ok: false,
      reason:
        'Refused to connect to 127.0.0.1: private and internal network addresses are not allowed. An administrator can allow them by setting ALLOW_PRIVATE_NETWORKS=true.',
    });
  });
});

describe.runIf(url)('postgresql against TEST_DATABASE_URL', () => {
  const logger = new CapturingLogger();
  let catalog: InProcessAppCatalog;
  const table = `conveyor_app_test_${randomBytes(4).toString('hex')}`;
  const target = new URL(url ?? 'postgres://localhost');
  const credentials = {
    host: target.hostname,
    port: Number(target.port || 5432),
    database: decodeURIComponent(target.pathname.slice(1)),
    user: decodeURIComponent(target.username),
    ...(target.password && { password: decodeURIComponent(target.password) }),
    ssl: false,
  };
  const connection = { credentials, oauth: null };
  const run = (key: string, parameters: Record<string, unknown>) =>
    catalog.runAction({ appKey: 'postgresql', key, parameters, connection, execution: null });

  const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: true, logger });
    await admin((c) => c.query(`CREATE TABLE "${table}" (id serial PRIMARY KEY, "user name" text, score integer)`));
  });

  afterAll(async () => {
    await admin((c) => c.query(`DROP TABLE IF EXISTS "${table}"`));
    await catalog.close();
  });

  it('verifies with SELECT 1 and names the connection user@host/database', async () => {
    const check = await catalog.verifyCredentials('postgresql', credentials, null);
    expect(check).toEqual({
      ok: true,
      screenName: `${credentials.user}@${credentials.host}/${credentials.database}`,
      credentials,
    });
  });

  it('fails with the server reason for a database that does not exist', async () => {
    const check = await catalog.verifyCredentials(
      'postgresql',
      { ...credentials, database: 'no_such_database_here', password: 'not-logged-secret' },
      null,
    );
    expect(check).toEqual({ ok: false, reason: 'database "no_such_database_here" does not exist' });
    expect(logger.text()).not.toContain('not-logged-secret');
  });

  it('fails with the connection error when nothing listens', async () => {
    const check = await catalog.verifyCredentials('postgresql', { ...credentials, port: 1 }, null);
    expect(check).toMatchObject({ ok: false, reason: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('inserts rows with quoted column names and returns them', async () => {
    const result = await run('insert', {
      table,
      values: [
        { key: 'user name', value: 'ada' },
        { key: 'score', value: '42' },
      ],
    });
    expect(result).toEqual({ rows: [{ id: 1, 'user name': 'ada', score: 42 }], rowCount: 1 });
    await run('insert', { table: `public.${table}`, values: [{ key: 'user name', value: "o'brien" }] });
  });

  it('runs a parameterised query: values never become SQL', async () => {
    const hostile = "ada' OR '1'='1";
    const none = await run('SQLQuery', {
      queryStatement: `SELECT * FROM "${table}" WHERE "user name" = $1`,
      params: [hostile],
    });
    expect(none).toEqual({ rows: [], rowCount: 0 });
    const found = await run('SQLQuery', {
      queryStatement: `SELECT "user name", score FROM "${table}" WHERE score > $1 AND "user name" = $2`,
      params: JSON.stringify([10, 'ada']),
    });
    expect(found).toEqual({ rows: [{ 'user name': 'ada', score: 42 }], rowCount: 1 });
  });

  it('runs a query without parameters', async () => {
    expect(await run('SQLQuery', { queryStatement: `SELECT count(*)::int AS n FROM "${table}"` })).toEqual({
      rows: [{ n: 2 }],
      rowCount: 1,
    });
  });

  it('updates and deletes the rows that match', async () => {
    const updated = await run('update', {
      table,
      values: [{ key: 'score', value: '7' }],
      where: [{ key: 'user name', value: "o'brien" }],
    });
    expect(updated).toMatchObject({ rows: [{ 'user name': "o'brien", score: 7 }], rowCount: 1 });
    const deleted = await run('delete', { table, where: [{ key: 'user name', value: "o'brien" }] });
    expect(deleted).toMatchObject({ rowCount: 1 });
  });

  it('cannot be tricked by a table name into running other SQL', async () => {
    await expect(
      run('insert', { table: `${table}" (id) VALUES (99); --`, values: [{ key: 'score', value: '1' }] }),
    ).rejects.toThrow(/does not exist/);
  });

  it('reports the server error of a bad statement', async () => {
    const failure = run('SQLQuery', { queryStatement: 'SELEC 1' });
    await expect(failure).rejects.toThrow(/syntax error/);
    await expect(failure).rejects.not.toBeInstanceOf(TemporaryError);
  });

  it('marks failures that may pass (deadlock, serialization, server restarting) as temporary', async () => {
    for (const state of ['40P01', '40001', '57P01', '53300', '08006']) {
      const raise = `DO $$ BEGIN RAISE EXCEPTION 'lost a race' USING ERRCODE = '${state}'; END $$`;
      await expect(run('SQLQuery', { queryStatement: raise }), state).rejects.toBeInstanceOf(TemporaryError);
    }
    const constraint = `DO $$ BEGIN RAISE EXCEPTION 'duplicate' USING ERRCODE = '23505'; END $$`;
    await expect(run('SQLQuery', { queryStatement: constraint })).rejects.not.toBeInstanceOf(TemporaryError);
  });

  it('refuses params that are not a JSON array', async () => {
    await expect(run('SQLQuery', { queryStatement: 'SELECT 1', params: '{"a":1}' })).rejects.toMatchObject({
      fields: { params: ['must be a JSON array.'] },
    });
  });
});
