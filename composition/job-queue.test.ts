import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../adapters/persistence/migrate.js';
import { openDatabase } from '../adapters/persistence/open-database.js';
import { silentLogger } from '../test/contract/persistence-fixture.js';
import { createTestDatabase, DIALECTS, type DialectName } from '../test/support/databases.js';
import { loadConfig } from './config.js';
import { createJobQueue } from './job-queue.js';

/** Sends one job through the queue the configuration picks; says where the job went. */
const sendThroughConfiguredQueue = async (dialect: DialectName, env: Record<string, string> = {}) => {
  const testDb = await createTestDatabase(dialect);
  const database = openDatabase(testDb.url, silentLogger);
  const bossSchema = `boss_${randomBytes(6).toString('hex')}`;
  try {
    await migrateToLatest(database.db);
    const config = loadConfig({ DATABASE_URL: testDb.url, QUEUE_PG_BOSS_SCHEMA: bossSchema, ...env });
    const queue = createJobQueue(config, database, silentLogger);
    try {
      const id = await queue.send({ name: 'composition.check', payload: {} });
      const local = await database.db
        .selectFrom('jobs' as any)
        .select('id')
        .execute();
      return { id, inLocalTable: local.length === 1, depth: await queue.depth() };
    } finally {
      await queue.stop();
    }
  } finally {
    await database.close();
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists ${bossSchema} cascade`).finally(() => client.end());
    }
    await testDb.drop();
  }
};

describe('createJobQueue', () => {
  it('uses the local queue on SQLite', async () => {
    const sent = await sendThroughConfiguredQueue('sqlite');
    expect(sent).toEqual({ id: expect.any(String), inLocalTable: true, depth: { 'composition.check': 1 } });
  });

  it.runIf(DIALECTS.includes('postgres'))('uses pg-boss on Postgres, in its own schema', async () => {
    const sent = await sendThroughConfiguredQueue('postgres');
    expect(sent).toEqual({ id: expect.any(String), inLocalTable: false, depth: { 'composition.check': 1 } });
  });

  it.runIf(DIALECTS.includes('postgres'))('uses the local queue on Postgres when QUEUE=local', async () => {
    const sent = await sendThroughConfiguredQueue('postgres', { QUEUE: 'local' });
    expect(sent).toEqual({ id: expect.any(String), inLocalTable: true, depth: { 'composition.check': 1 } });
  });
});
