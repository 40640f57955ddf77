import type { KyselyPlugin } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobRequest } from '../../ports/job-queue.js';
import { waitUntil } from '../../test/contract/job-queue-fixture.js';
import { silentLogger } from '../../test/contract/persistence-fixture.js';
import { createTestDatabase, DIALECTS } from '../../test/support/databases.js';
import { migrateToLatest } from '../persistence/migrate.js';
import { openDatabase } from '../persistence/open-database.js';
import { Scheduler } from './scheduler.js';
import type { QueueDb } from './tables.js';

const YEARLY = '0 0 1 1 *';

describe.each(DIALECTS)('scheduler on %s', (dialect) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('fires a schedule replaced between reading it and claiming its tick with the new definition', async () => {
    const testDb = await createTestDatabase(dialect, { onDisk: true });
    cleanups.push(() => testDb.drop());
    const handle = openDatabase(testDb.url, silentLogger);
    cleanups.push(() => handle.close());
    await migrateToLatest(handle.db);
    // Another process, on its own connection, replaces the schedule just after the tick read it;
    // its next tick is the same one, so only the payload tells the two definitions apart.
    const other = openDatabase(testDb.url, silentLogger);
    cleanups.push(() => other.close());
    const db = handle.db as unknown as QueueDb;
    const dueAtMs = Date.now() - 10;
    await db
      .insertInto('job_schedules')
      .values({
        key: 'schedule:replaced',
        cron: YEARLY,
        timezone: 'UTC',
        name: 'replaced',
        payload: JSON.stringify({ version: 1 }),
        singleton_key: null,
        next_run_at_ms: dueAtMs,
        updated_at_ms: dueAtMs,
      })
      .execute();
    let replaced = false;
    const replaceAfterRead: KyselyPlugin = {
      transformQuery: (args) => args.node,
      async transformResult(args) {
        if (!replaced && args.result.rows.some((row) => typeof row === 'object' && row !== null && 'cron' in row)) {
          replaced = true;
          await (other.db as unknown as QueueDb)
            .updateTable('job_schedules')
            .set({ payload: JSON.stringify({ version: 2 }), updated_at_ms: Date.now() })
            .where('key', '=', 'schedule:replaced')
            .execute();
        }
        return args.result;
      },
    };
    const sent: JobRequest[] = [];
    const scheduler = new Scheduler(
      db.withPlugin(replaceAfterRead),
      async (_trx, request) => {
        sent.push(request);
        return 'job';
      },
      50,
      silentLogger,
    );
    cleanups.push(() => scheduler.stop());
    scheduler.start();
    await waitUntil(() => sent.length === 1, 'the tick fires');
    expect(replaced).toBe(true);
    expect(sent).toEqual([{ name: 'replaced', payload: { version: 2 } }]);
  });
});
