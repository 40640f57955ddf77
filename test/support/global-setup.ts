import pg from 'pg';

/** Postgres suites are mandatory in CI: an unset or unreachable TEST_DATABASE_URL fails the run. */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  if (!url) {
    if (ci) throw new Error('CI=true but TEST_DATABASE_URL is not set: the Postgres suites must run in CI.');
    process.stderr.write(
      '\n*** TEST_DATABASE_URL is not set: the Postgres suites are SKIPPED; only SQLite is tested. ***\n\n',
    );
    return;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL=${url} is unreachable: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}
