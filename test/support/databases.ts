import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * The dialects this run covers. SQLite always; Postgres when TEST_DATABASE_URL is set. The global
 * set-up fails the run in CI when it is not, and warns loudly elsewhere.
 */
export const DIALECTS: readonly DialectName[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

/** The test Postgres server as the postgresql app's connection fields. */
export const localPostgres = () => {
  const url = new URL(postgresUrl ?? 'postgres://postgres@127.0.0.1:5432/test');
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    database: url.pathname.slice(1),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password) || 'unused-with-trust-auth',
    ssl: false,
  };
};

/**
 * A private database: SQLite in memory (or, `onDisk`, in a temporary file that a test can open
 * beside the application), or a fresh schema on the test Postgres server.
 */
export const createTestDatabase = async (dialect: DialectName, { onDisk = false } = {}): Promise<TestDatabase> => {
  if (dialect === 'sqlite') {
    if (!onDisk) return { url: ':memory:', drop: async () => {} };
    const dir = mkdtempSync(join(tmpdir(), 'conveyor-test-'));
    return { url: join(dir, 'conveyor.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  return freshPostgresSchema(postgresUrl);
};

/**
 * A new schema on the Postgres server at `serverUrl` (named `prefix_` and random hex), as a URL
 * whose search_path is that schema, and what drops it.
 */
export const freshPostgresSchema = async (serverUrl: string, prefix = 'test'): Promise<TestDatabase> => {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => dropPostgresSchema(serverUrl, schema) };
};

/** Drops a schema (and all it holds) of the Postgres server at `serverUrl`. */
export const dropPostgresSchema = async (serverUrl: string, schema: string) => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
};

/** Drops a schema of the test Postgres server that a test made beside its database (pg-boss's). */
export const dropSchema = async (schema: string) => {
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  await dropPostgresSchema(postgresUrl, schema);
};
