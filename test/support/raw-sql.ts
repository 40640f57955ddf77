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

/** Runs statements on a test instance's database beside the application, e.g. to make it fail on purpose. */
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
  const db = new BetterSqlite3(databaseUrl);
  try {
    db.exec(statements);
  } finally {
    db.close();
  }
};
