import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithApp, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { builtInApps, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { postgresql } from '../../adapters/apps/postgresql/index.js';
import { createMemoryStore, TemporaryError } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';

const url = process.env.TEST_DATABASE_URL;
/** TEST_DATABASE_URL as the app's connection fields. */
const target = new URL(url ?? 'postgres://localhost');
const credentials = {
  host: target.hostname,
  port: Number(target.port || 5432),
  database: decodeURIComponent(target.pathname.slice(1)),
  user: decodeURIComponent(target.username),
  ...(target.password && { password: decodeURIComponent(target.password) }),
  ssl: false,
};

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

describe.runIf(url)('postgresql triggers against TEST_DATABASE_URL', () => {
  const suffix = () => randomBytes(4).toString('hex');
  const sql = async (text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  /** The pids of the sessions listening on `channel` (the trigger names its session after it). */
  const listeners = async (channel: string) =>
    (await sql('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [`conveyor listen ${channel}`])).map(
      (row) => row.pid as number,
    );
  const listen = (channel: string, accept?: (message: unknown) => Promise<void>) =>
    listenWithApp(postgresql, 'newNotification', {
      auth: credentials,
      parameters: { channel },
      ...(accept && { accept }),
    });

  it('newNotification: emits notifications in order, JSON objects and arrays parsed, with the sender pid', async () => {
    const channel = `Orders ${suffix()}`;
    const probe = listen(channel);
    await probe.subscribed();
    const [{ pid }] = await sql(
      "SELECT pg_backend_pid() AS pid, pg_notify($1, '{\"n\":1}'), pg_notify($1, 'plain'), pg_notify($1, '[2]'), pg_notify($1, '')",
      [channel],
    );
    const messages = await probe.waitForMessages(4);
    expect(messages.map((m) => m.data)).toEqual([
      { channel, payload: { n: 1 }, processId: pid },
      { channel, payload: 'plain', processId: pid },
      { channel, payload: [2], processId: pid },
      { channel, payload: '', processId: pid },
    ]);
    expect(messages.every((m) => m.id === undefined)).toBe(true);
    expect(await runAppTrigger(postgresql, 'newNotification', { auth: credentials, parameters: { channel } })).toEqual(
      [],
    );
    expect(await probe.stop()).toBeNull();
    // stop() ended the session on the server too (the backend exits right after the client leaves).
    const deadline = Date.now() + 2000;
    while ((await listeners(channel)).length > 0 && Date.now() < deadline) await sleep(50);
    expect(await listeners(channel)).toEqual([]);
  });

  it('newNotification: emits one at a time, and goes on after an emit that rejects (NOTIFY has no redelivery)', async () => {
    const channel = `seq_${suffix()}`;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const accepted: unknown[] = [];
    const probe = listen(channel, async (message) => {
      accepted.push((message as { data: { payload: unknown } }).data.payload);
      if (accepted.length === 1) await held;
      if (accepted.length === 2) throw new Error('database away');
    });
    await probe.subscribed();
    await sql("SELECT pg_notify($1, '[1]'), pg_notify($1, '[2]'), pg_notify($1, '[3]')", [channel]);
    await sleep(300);
    expect(accepted).toEqual([[1]]);
    release();
    await probe.waitForMessages(2);
    expect(accepted).toEqual([[1], [2], [3]]);
    expect(probe.messages.map((m) => (m.data as { payload: unknown }).payload)).toEqual([[1], [3]]);
    await probe.stop();
  });

  it('newNotification: throws promptly when the server ends the session, and a new listen receives again', async () => {
    const channel = `kill_${suffix()}`;
    const probe = listen(channel);
    await probe.subscribed();
    const [pid] = await listeners(channel);
    expect(pid).toBeTypeOf('number');
    const killed = Date.now();
    await sql('SELECT pg_terminate_backend($1)', [pid]);
    const error = await probe.ended;
    expect(Date.now() - killed).toBeLessThan(5000);
    expect(error?.message).toMatch(/^The PostgreSQL session listening for notifications ended/);
    expect(error?.message).not.toContain(credentials.password ?? 'no password');

    const again = listen(channel);
    await again.subscribed();
    await sql('SELECT pg_notify($1, \'{"back":true}\')', [channel]);
    expect((await again.waitForMessages(1))[0]?.data).toMatchObject({ payload: { back: true } });
    expect(await again.stop()).toBeNull();
  });

  it('newNotification: refuses a channel Postgres would cut, and fails to listen with the reason', async () => {
    const long = listen('c'.repeat(64));
    expect(await long.ended).toMatchObject({ fields: { channel: ['must be at most 63 bytes long.'] } });
    const wrong = listenWithApp(postgresql, 'newNotification', {
      auth: { ...credentials, database: 'no_such_database_here' },
      parameters: { channel: 'x' },
    });
    expect((await wrong.ended)?.message).toBe('database "no_such_database_here" does not exist');
  });

  it("newRow: the first poll learns the latest row; then rows above the mark, newest first, the last poll's again", async () => {
    const table = `conveyor_rows_${suffix()}`;
    await sql(`CREATE TABLE "${table}" (id bigserial PRIMARY KEY, "Name" text)`);
    try {
      const store = createMemoryStore();
      const poll = async () =>
        (
          await runAppTrigger(postgresql, 'newRow', { auth: credentials, store, parameters: { table, column: 'id' } })
        ).map((item) => [item.id, (item.data as { Name: string }).Name]);
      expect(await poll()).toEqual([]);
      await sql(`INSERT INTO "${table}" ("Name") VALUES ('a'), ('b')`);
      expect(await poll()).toEqual([
        ['2', 'b'],
        ['1', 'a'],
      ]);
      await sql(`INSERT INTO "${table}" ("Name") VALUES ('c')`);
      expect(await poll()).toEqual([
        ['3', 'c'],
        ['2', 'b'],
        ['1', 'a'],
      ]);
      expect(await poll()).toEqual([['3', 'c']]);
      expect(await poll()).toEqual([]);

      const other = createMemoryStore();
      const first = await runAppTrigger(postgresql, 'newRow', {
        auth: credentials,
        store: other,
        parameters: { table: `public.${table}`, column: 'id' },
      });
      expect(first).toEqual([{ id: '3', data: { id: '3', Name: 'c' } }]);
    } finally {
      await sql(`DROP TABLE IF EXISTS "${table}"`);
    }
  });

  it('newRow: follows a timestamp column at full precision, and refuses a column that does not exist', async () => {
    const table = `conveyor_rows_${suffix()}`;
    await sql(`CREATE TABLE "${table}" (at timestamptz, v int)`);
    try {
      await sql(`INSERT INTO "${table}" VALUES ('2024-01-01 10:00:00.000001+00', 1)`);
      const store = createMemoryStore();
      const poll = async (column = 'at') =>
        (await runAppTrigger(postgresql, 'newRow', { auth: credentials, store, parameters: { table, column } })).map(
          (item) => (item.data as { v: number }).v,
        );
      expect(await poll()).toEqual([1]);
      await sql(`INSERT INTO "${table}" VALUES ('2024-01-01 10:00:00.000002+00', 2), (NULL, 3)`);
      expect(await poll()).toEqual([2]);
      await expect(poll('nope')).rejects.toThrow(/column "nope" does not exist/);
    } finally {
      await sql(`DROP TABLE IF EXISTS "${table}"`);
    }
  });
});
