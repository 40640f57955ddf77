import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { mysqlApp } from '../../adapters/apps/mysql/index.js';
import { createMemoryStore, type Store, TemporaryError, type TriggerItem } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { localMariaDb, localMariaDbConnection, withMariaDb } from '../support/mariadb.js';
import { serviceAvailable } from '../support/services.js';

describe('mysql: connection fields', () => {
  const catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
  afterAll(() => catalog.close());

  it('need host, user and database; the port defaults to 3306 and SSL to off', () => {
    expect(catalog.parseAuthFields('mysql', { port: 'x' })).toEqual({
      ok: false,
      fields: {
        host: ['is required.'],
        port: ['must be a number.'],
        user: ['is required.'],
        database: ['is required.'],
      },
    });
    expect(catalog.parseAuthFields('mysql', { host: 'db', user: 'me', database: 'app' })).toEqual({
      ok: true,
      value: { host: 'db', port: 3306, user: 'me', database: 'app', ssl: false },
    });
  });

  it('keep the password secret', () => {
    const auth = catalog.find('mysql')?.auth;
    expect(auth?.kind).toBe('fields');
    expect(auth?.fields.find((f) => f.key === 'password')?.secret).toBe(true);
  });

  it('refuse to reach loopback unless the instance allows private networks', async () => {
    const check = await catalog.verifyCredentials('mysql', { ...localMariaDb, password: 'hunter22', ssl: false }, null);
    expect(check).toEqual({
      ok: false,
      reason:
        'Refused to connect to 127.0.0.1: private and internal network addresses are not allowed. An administrator can allow them by setting ALLOW_PRIVATE_NETWORKS=true.',
    });
    await expect(
      catalog.runAction({
        appKey: 'mysql',
        key: 'executeQuery',
        parameters: { query: 'SELECT 1' },
        connection: localMariaDbConnection,
        execution: null,
      }),
    ).rejects.toThrow(/Refused to connect to 127\.0\.0\.1/);
  });

  it('poll every five minutes unless told otherwise', () => {
    const [newRow, updatedRow] = mysqlApp.triggers;
    expect(newRow?.schedule?.({ table: 't', column: 'id', pollInterval: 5 })).toEqual({
      cron: '*/5 * * * *',
      timezone: 'UTC',
    });
    expect(
      catalog.checkStepParameters('mysql', 'trigger', 'updatedRow', { table: 't', column: 'updated_at' }),
    ).toBeNull();
    expect(catalog.checkStepParameters('mysql', 'trigger', 'newRow', { pollInterval: 0 })).toEqual({
      table: ['is required.'],
      column: ['is required.'],
      pollInterval: [expect.stringMatching(/1/)],
    });
    expect(updatedRow?.schedule?.({ table: 't', column: 'u', keyColumn: 'id', pollInterval: 1 })).toEqual({
      cron: '*/1 * * * *',
      timezone: 'UTC',
    });
  });
});

/** What the engine does with a polling trigger's items (core/engine/flow-triggers.ts, newItems). */
const engineOf = () => {
  const seen = new Set<string>();
  let first = true;
  return (items: readonly TriggerItem[]) => {
    const fresh = items.filter((item) => item.id === undefined || !seen.has(item.id));
    for (const item of items) if (item.id !== undefined) seen.add(item.id);
    if (first) {
      first = false;
      return [];
    }
    return [...fresh].reverse();
  };
};

describe.runIf(await serviceAvailable('mariadb'))('mysql against the test MariaDB', () => {
  const logger = new CapturingLogger();
  let catalog: InProcessAppCatalog;
  const suffix = randomBytes(4).toString('hex');
  const table = `conveyor_app_test_${suffix}`;
  const plain = `conveyor_app_plain_${suffix}`;
  const watched = `conveyor_app_watch_${suffix}`;
  const changed = `conveyor_app_changed_${suffix}`;
  const weird = 'we`ird "col"';
  const credentials = localMariaDbConnection.credentials;
  const connection = localMariaDbConnection;
  const run = (key: string, parameters: Record<string, unknown>) =>
    catalog.runAction({ appKey: 'mysql', key, parameters, connection, execution: null });
  const poll = (key: string, parameters: Record<string, unknown>, store: Store) =>
    catalog.runTrigger({ appKey: 'mysql', key, parameters, connection, execution: null, store });

  beforeAll(async () => {
    catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: true, logger });
    await withMariaDb(async (db) => {
      await db.query(
        `CREATE TABLE \`${table}\` (id INT AUTO_INCREMENT PRIMARY KEY, \`user name\` VARCHAR(100),
          score INT, \`we\`\`ird "col"\` VARCHAR(100), big BIGINT, amount DECIMAL(10,2), data BLOB,
          at DATETIME(6))`,
      );
      await db.query(`CREATE TABLE \`${plain}\` (code VARCHAR(10), label VARCHAR(100))`);
      await db.query(`CREATE TABLE \`${watched}\` (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100))`);
      await db.query(
        `CREATE TABLE \`${changed}\` (id INT PRIMARY KEY, name VARCHAR(100),
          updated_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))`,
      );
    });
  });

  afterAll(async () => {
    await withMariaDb(async (db) => {
      for (const name of [table, plain, watched, changed]) await db.query(`DROP TABLE IF EXISTS \`${name}\``);
    });
    await catalog.close();
  });

  describe('verification', () => {
    it('runs SELECT 1 over TCP and names the connection user@host/database', async () => {
      const check = await catalog.verifyCredentials('mysql', credentials, null);
      expect(check).toMatchObject({ ok: true, screenName: 'root@127.0.0.1/test' });
    });

    it('fails with the server reason for a database that does not exist', async () => {
      const check = await catalog.verifyCredentials(
        'mysql',
        { ...credentials, database: 'no_such_database_here' },
        null,
      );
      expect(check).toEqual({ ok: false, reason: "Unknown database 'no_such_database_here'" });
    });

    it('fails with the server reason for a wrong user, without the password', async () => {
      const check = await catalog.verifyCredentials(
        'mysql',
        { ...credentials, user: `nobody_${suffix}`, password: 'not-logged-secret' },
        null,
      );
      expect(check).toMatchObject({ ok: false, reason: expect.stringMatching(/^Access denied for user 'nobody_/) });
      expect(JSON.stringify(check)).not.toContain('not-logged-secret');
      expect(logger.text()).not.toContain('not-logged-secret');
    });

    it('asks for TLS when told to, and fails when the server offers none', async () => {
      const check = await catalog.verifyCredentials('mysql', { ...credentials, ssl: true }, null);
      expect(check).toMatchObject({ ok: false, reason: expect.stringMatching(/does not support secure connection/) });
    });

    it('fails with the connection error when nothing listens; a run takes it as temporary', async () => {
      const check = await catalog.verifyCredentials('mysql', { ...credentials, port: 1 }, null);
      expect(check).toMatchObject({ ok: false, reason: expect.stringMatching(/ECONNREFUSED/) });
      const refused = catalog.runAction({
        appKey: 'mysql',
        key: 'executeQuery',
        parameters: { query: 'SELECT 1' },
        connection: { credentials: { ...credentials, port: 1 }, oauth: null },
        execution: null,
      });
      await expect(refused).rejects.toBeInstanceOf(TemporaryError);
    });
  });

  describe('actions', () => {
    it('inserts a row with quoted column names and returns its id and the row as stored', async () => {
      const result = await run('insertRow', {
        table,
        values: [
          { key: 'user name', value: 'ada' },
          { key: 'score', value: '42' },
          { key: weird, value: "o'brien`); DROP TABLE x; --" },
        ],
      });
      expect(result).toEqual({
        insertId: 1,
        affectedRows: 1,
        row: {
          id: 1,
          'user name': 'ada',
          score: 42,
          [weird]: "o'brien`); DROP TABLE x; --",
          big: null,
          amount: null,
          data: null,
          at: null,
        },
      });
      await run('insertRow', { table: `test.${table}`, values: [{ key: 'user name', value: 'bob' }] });
    });

    it('returns the row of a table without AUTO_INCREMENT only when its key is known', async () => {
      expect(await run('insertRow', { table: plain, values: [{ key: 'code', value: 'a' }] })).toEqual({
        insertId: 0,
        affectedRows: 1,
        row: null,
      });
    });

    it('cannot be tricked by a table or column name into running other SQL', async () => {
      await expect(
        run('insertRow', { table: `${table}\` (id) VALUES (99); --`, values: [{ key: 'score', value: '1' }] }),
      ).rejects.toThrow(/doesn't exist/);
      await expect(
        run('insertRow', { table, values: [{ key: 'score`) VALUES (1); DROP TABLE x; --', value: '1' }] }),
      ).rejects.toThrow(/Unknown column/);
      await expect(run('insertRow', { table: 'a.b.c', values: [{ key: 'x', value: '1' }] })).rejects.toThrow(
        /not a table name/,
      );
      const count = await run('executeQuery', { query: `SELECT COUNT(*) AS n FROM \`${table}\`` });
      expect(count).toEqual({ rows: [{ n: 2 }] });
    });

    it('runs a parameterised query: values are bound, never SQL', async () => {
      const hostile = "ada' OR '1'='1";
      expect(
        await run('executeQuery', {
          query: `SELECT * FROM \`${table}\` WHERE \`user name\` = ?`,
          params: [hostile],
        }),
      ).toEqual({ rows: [] });
      const found = await run('executeQuery', {
        query: `SELECT \`user name\`, score FROM \`${table}\` WHERE score > ? AND \`user name\` = ?`,
        params: JSON.stringify([10, 'ada']),
      });
      expect(found).toEqual({ rows: [{ 'user name': 'ada', score: 42 }] });
    });

    it('answers a write with affectedRows, insertId and changedRows', async () => {
      const inserted = await run('executeQuery', {
        query: `INSERT INTO \`${table}\` (\`user name\`, big, amount, data, at) VALUES (?, ?, ?, ?, ?)`,
        params: ['cy', '9007199254740993', '12.50', 'hi', '2024-05-06 07:08:09.123456'],
      });
      expect(inserted).toEqual({ affectedRows: 1, insertId: 3, changedRows: 0 });
      const updated = await run('executeQuery', {
        query: `UPDATE \`${table}\` SET score = ? WHERE id IN (1, 2)`,
        params: [42],
      });
      expect(updated).toEqual({ affectedRows: 2, insertId: 0, changedRows: 1 });
    });

    it('keeps its output JSON-safe: big integers, decimals, bytes and times as text', async () => {
      const read = await run('executeQuery', {
        query: `SELECT big, amount, data, at FROM \`${table}\` WHERE id = ?`,
        params: [3],
      });
      expect(read).toEqual({
        rows: [
          {
            big: '9007199254740993',
            amount: '12.50',
            data: Buffer.from('hi').toString('base64'),
            at: '2024-05-06 07:08:09.123456',
          },
        ],
      });
    });

    it('runs a statement without parameters as text (statements that cannot be prepared too)', async () => {
      expect(await run('executeQuery', { query: 'SELECT 1 + 1 AS two' })).toEqual({ rows: [{ two: 2 }] });
      const shown = (await run('executeQuery', { query: `SHOW COLUMNS FROM \`${table}\`` })) as { rows: unknown[] };
      expect(shown.rows).toHaveLength(8);
    });

    it('reports the server error of a bad statement, not as temporary', async () => {
      const failure = run('executeQuery', { query: 'SELEC 1' });
      await expect(failure).rejects.toThrow(/You have an error in your SQL syntax/);
      await expect(failure).rejects.not.toBeInstanceOf(TemporaryError);
      const duplicate = run('executeQuery', { query: `INSERT INTO \`${table}\` (id) VALUES (?)`, params: [1] });
      await expect(duplicate).rejects.toThrow(/Duplicate entry/);
      await expect(duplicate).rejects.not.toBeInstanceOf(TemporaryError);
    });

    it('marks failures that may pass (deadlock, lock wait, shutdown, connection killed) as temporary', async () => {
      for (const errno of [1213, 1205, 1053, 1927]) {
        const signal = `SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = ${errno}, MESSAGE_TEXT = 'lost a race'`;
        await expect(run('executeQuery', { query: signal }), String(errno)).rejects.toBeInstanceOf(TemporaryError);
      }
      const other = "SIGNAL SQLSTATE '45000' SET MYSQL_ERRNO = 1644, MESSAGE_TEXT = 'refused'";
      await expect(run('executeQuery', { query: other })).rejects.not.toBeInstanceOf(TemporaryError);
    });

    it('takes a real lock wait time-out as temporary', async () => {
      await withMariaDb(async (db) => {
        await db.beginTransaction();
        await db.query(`SELECT * FROM \`${table}\` WHERE id = 1 FOR UPDATE`);
        try {
          const waiting = run('executeQuery', {
            query: `SET STATEMENT innodb_lock_wait_timeout = 1 FOR UPDATE \`${table}\` SET score = ? WHERE id = 1`,
            params: [1],
          });
          await expect(waiting).rejects.toBeInstanceOf(TemporaryError);
          await expect(waiting).rejects.toThrow(/Lock wait timeout/);
        } finally {
          await db.rollback();
        }
      });
    });

    it('refuses params that are not a JSON array', async () => {
      await expect(run('executeQuery', { query: 'SELECT 1', params: '{"a":1}' })).rejects.toMatchObject({
        fields: { params: ['must be a JSON array.'] },
      });
      await expect(run('executeQuery', {})).rejects.toMatchObject({ fields: { query: ['is required.'] } });
    });

    it('updates the rows that match; an empty where needs allRows', async () => {
      const updated = await run('updateRows', {
        table,
        values: [{ key: 'score', value: '7' }],
        where: [
          { key: 'user name', value: 'bob' },
          { key: 'id', value: '2' },
        ],
      });
      expect(updated).toEqual({ affectedRows: 1, changedRows: 1 });
      const injected = await run('updateRows', {
        table,
        values: [{ key: 'score', value: '0' }],
        where: [{ key: 'user name', value: "x' OR '1'='1" }],
      });
      expect(injected).toEqual({ affectedRows: 0, changedRows: 0 });
      await expect(
        run('updateRows', { table, values: [{ key: 'score', value: '1' }], where: [] }),
      ).rejects.toMatchObject({ fields: { where: ['is required unless "All rows" is on.'] } });
      expect(await run('updateRows', { table, values: [{ key: 'score', value: '5' }], allRows: true })).toMatchObject({
        affectedRows: 3,
        changedRows: 3,
      });
      await expect(run('updateRows', { table, where: [{ key: 'id', value: '1' }] })).rejects.toMatchObject({
        fields: { values: ['is required.'] },
      });
    });

    it('deletes the rows that match; an empty where needs allRows', async () => {
      await expect(run('deleteRows', { table: plain })).rejects.toMatchObject({
        fields: { where: ['is required unless "All rows" is on.'] },
      });
      expect(await run('deleteRows', { table, where: [{ key: 'user name', value: 'bob' }] })).toEqual({
        affectedRows: 1,
      });
      expect(await run('deleteRows', { table: plain, allRows: 'true' })).toEqual({ affectedRows: 1 });
    });

    it('lists the database’s tables and a table’s columns for the dropdowns', async () => {
      const tables = await catalog.dynamicData({ appKey: 'mysql', key: 'listTables', parameters: {}, connection });
      expect(tables).toContainEqual({ name: table, value: table });
      const columns = await catalog.dynamicData({
        appKey: 'mysql',
        key: 'listColumns',
        parameters: { table },
        connection,
      });
      expect(columns.map((c) => c.value)).toEqual(['id', 'user name', 'score', weird, 'big', 'amount', 'data', 'at']);
      expect(await catalog.dynamicData({ appKey: 'mysql', key: 'listColumns', parameters: {}, connection })).toEqual(
        [],
      );
    });
  });

  describe('trigger newRow', () => {
    const parameters = { table: watched, column: 'id' };
    const insert = (count: number) =>
      withMariaDb((db) =>
        db.query(
          `INSERT INTO \`${watched}\` (name) VALUES ${Array.from({ length: count }, () => '(?)').join(', ')}`,
          Array.from({ length: count }, (_, i) => `row ${i}`),
        ),
      );
    const ids = (items: readonly TriggerItem[]) => items.map((item) => item.id);

    it('learns what exists first, then hands over each new row once, oldest first', async () => {
      const store = createMemoryStore();
      const engine = engineOf();
      await insert(3);
      const first = await poll('newRow', parameters, store);
      expect(ids(first)).toEqual(['3', '2', '1']);
      expect(first[0]).toEqual({ id: '3', data: { id: 3, name: 'row 2' } });
      expect(engine(first)).toEqual([]);

      // Nothing new: the newest row again, which the engine has seen (and an editor test shows).
      const idle = await poll('newRow', parameters, store);
      expect(ids(idle)).toEqual(['3']);
      expect(engine(idle)).toEqual([]);

      await insert(2);
      const next = await poll('newRow', parameters, store);
      expect(ids(next)).toEqual(['5', '4', '3']);
      expect(ids(engine(next))).toEqual(['4', '5']);
      expect(await store.get(`mysql:cursor:${JSON.stringify([watched, 'id'])}`)).toEqual({ from: [3], seen: [5] });

      // 150 new rows: 100 a poll, the last batch repeated; the engine starts each once.
      await insert(150);
      const page = await poll('newRow', parameters, store);
      expect(page).toHaveLength(102);
      expect(ids(engine(page))).toEqual(Array.from({ length: 100 }, (_, i) => String(i + 6)));
      const rest = engine(await poll('newRow', parameters, store));
      expect(ids(rest)).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 106)));
      expect(engine(await poll('newRow', parameters, store))).toEqual([]);
    });

    it('hands a batch over again when the runs of the poll that found it were never started', async () => {
      const store = createMemoryStore();
      const engine = engineOf();
      engine(await poll('newRow', parameters, store));
      await insert(2);
      const lost = await poll('newRow', parameters, store);
      expect(lost).toHaveLength(3);
      // The instance stopped before the engine took `lost`: the next poll has those rows again.
      expect(ids(engine(await poll('newRow', parameters, store)))).toEqual(ids(lost.slice(0, 2)).reverse());
    });

    it('learns an empty table, then sees its first rows', async () => {
      await withMariaDb((db) => db.query(`CREATE TABLE \`${watched}_e\` (id INT AUTO_INCREMENT PRIMARY KEY)`));
      try {
        const store = createMemoryStore();
        const engine = engineOf();
        const empty = { table: `${watched}_e`, column: 'id' };
        expect(engine(await poll('newRow', empty, store))).toEqual([]);
        expect(await poll('newRow', empty, store)).toEqual([]);
        await withMariaDb((db) => db.query(`INSERT INTO \`${watched}_e\` () VALUES (), ()`));
        expect(ids(engine(await poll('newRow', empty, store)))).toEqual(['1', '2']);
      } finally {
        await withMariaDb((db) => db.query(`DROP TABLE \`${watched}_e\``));
      }
    });

    it('refuses a hostile table or column name as unknown', async () => {
      const store = createMemoryStore();
      await expect(
        poll('newRow', { table: `${watched}\` WHERE 1; DROP TABLE x; --`, column: 'id' }, store),
      ).rejects.toThrow(/doesn't exist/);
      await expect(poll('newRow', { table: watched, column: 'id` > 0 OR `id' }, store)).rejects.toThrow(
        /Unknown column/,
      );
    });
  });

  describe('trigger updatedRow', () => {
    const parameters = { table: changed, column: 'updated_at' };
    const sql = (statement: string, values: unknown[] = []) => withMariaDb((db) => db.query(statement, values));

    it('hands over each insert and each update (the same row again, as a new item)', async () => {
      await sql(
        `INSERT INTO \`${changed}\` (id, name, updated_at) VALUES
          (1, 'one', '2020-01-01 00:00:01'), (2, 'two', '2020-01-01 00:00:02')`,
      );
      const store = createMemoryStore();
      const engine = engineOf();
      const first = await poll('updatedRow', parameters, store);
      expect(first.map((i) => i.id)).toEqual([
        JSON.stringify([2, '2020-01-01 00:00:02']),
        JSON.stringify([1, '2020-01-01 00:00:01']),
      ]);
      expect(engine(first)).toEqual([]);

      await sql(`UPDATE \`${changed}\` SET name = 'uno', updated_at = '2020-01-01 00:00:03' WHERE id = 1`);
      const updated = engine(await poll('updatedRow', parameters, store));
      expect(updated).toEqual([
        {
          id: JSON.stringify([1, '2020-01-01 00:00:03']),
          data: { id: 1, name: 'uno', updated_at: '2020-01-01 00:00:03' },
        },
      ]);
      expect(engine(await poll('updatedRow', parameters, store))).toEqual([]);

      // A timestamp moved back is no change; ON UPDATE CURRENT_TIMESTAMP(6) moves it forward untold.
      await sql(`UPDATE \`${changed}\` SET updated_at = '2019-01-01' WHERE id = 2`);
      expect(engine(await poll('updatedRow', parameters, store))).toEqual([]);
      await sql(`UPDATE \`${changed}\` SET name = 'dos' WHERE id = 2`);
      await sql(`INSERT INTO \`${changed}\` (id, name) VALUES (3, 'three')`);
      const later = engine(await poll('updatedRow', parameters, store));
      expect(later.map((i) => (i.data as { name: string }).name)).toEqual(['dos', 'three']);
    });

    it('pages through many rows with the same timestamp by their key', async () => {
      const values = Array.from({ length: 150 }, (_, i) => `(${1000 + i}, 'tie', '2031-01-01 00:00:00')`);
      const store = createMemoryStore();
      const engine = engineOf();
      engine(await poll('updatedRow', { ...parameters, keyColumn: 'id' }, store));
      await sql(`INSERT INTO \`${changed}\` (id, name, updated_at) VALUES ${values.join(', ')}`);
      const seen = [
        ...engine(await poll('updatedRow', parameters, store)),
        ...engine(await poll('updatedRow', parameters, store)),
        ...engine(await poll('updatedRow', parameters, store)),
      ];
      expect(seen.map((i) => (i.data as { id: number }).id)).toEqual(Array.from({ length: 150 }, (_, i) => 1000 + i));
    });
  });
});
