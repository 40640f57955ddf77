import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHealthProbe } from '../../adapters/persistence/health-probe.js';
import { type DatabaseHandle, openDatabase } from '../../adapters/persistence/open-database.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.js';

const APP_NAME = `conveyor-pool-test-${process.pid}`;

describe.runIf(DIALECTS.includes('postgres'))('the Postgres pool when the server drops its connections', () => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    const url = new URL(testDb.url);
    url.searchParams.set('application_name', APP_NAME);
    handle = openDatabase(url.toString(), logger, { poolSize: 3 });
  });
  afterAll(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('keeps the process alive, logs the failure and reconnects on the next query', async () => {
    // Fill the pool with idle clients.
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(handle.db)));

    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [APP_NAME],
      );
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(logger.entries.some((e) => e.level === 'error' && e.message === 'postgres pool client failed')).toBe(true);
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
    expect(rows).toEqual([{ one: 1 }]);
    expect(await createHealthProbe(handle).databaseReachable()).toBe(true);
  });
});

describe('the health probe', () => {
  it('says the database is unreachable when it is', async () => {
    const logger = new CapturingLogger();
    // Nothing listens on port 1; the probe must answer false, not throw or hang.
    const handle = openDatabase('postgres://nobody@127.0.0.1:1/none', logger);
    try {
      expect(await createHealthProbe(handle).databaseReachable()).toBe(false);
    } finally {
      await handle.close();
    }
  });
});
