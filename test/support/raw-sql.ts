import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/**
 * Reads rows straight from a test instance's database, beside the application, to check what is
 * really stored. SQLite needs a file database (an in-memory one is private to its connection).
 */
export const rawQuery = async (databaseUrl: string, query: string, params: unknown[] = []): Promise<any[]> => {
  if (databaseUrl.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      let n = 0;
      return (
        await client.query(
          query.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows;
    } finally {
      await client.end();
    }
  }
  const db = new BetterSqlite3(databaseUrl, { readonly: true });
  try {
    return db.prepare(query).all(...params);
  } finally {
    db.close();
  }
};

/**
 * Runs statements on a test instance's database beside the application, e.g. to make it fail on
 * purpose. On SQLite it waits for the application's batch of writes without blocking the event
 * loop, which the application needs to commit that batch.
 */
export const rawExecute = async (databaseUrl: string, statements: string): Promise<void> => {
  if (databaseUrl.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(statements);
    } finally {
      await client.end();
    }
    return;
  }
  const deadline = Date.now() + 5000;
  for (;;) {
    const db = new BetterSqlite3(databaseUrl, { timeout: 0 });
    try {
      db.exec(statements);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
    } finally {
      db.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
