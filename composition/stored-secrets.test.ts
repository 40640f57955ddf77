import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPinoLogger } from '../adapters/logging/pino-logger.js';
import { openDatabase } from '../adapters/persistence/open-database.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/support/databases.js';
import { storeOneCredential } from '../test/support/stored-credential.js';
import { runCli } from './cli.js';
import { loadConfig } from './config.js';
import { startInstance } from './instance.js';

const start = (env: Record<string, string>) =>
  startInstance(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', QUEUE: 'local', ...env })).then((c) => c.close());

const key = () => randomBytes(32).toString('base64');

/** `conveyor forget-credentials`, in process: its exit code and what it printed. */
const forget = async (env: Record<string, string>, ...args: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['forget-credentials', ...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { LOG_LEVEL: 'silent', ...env },
  });
  return { code, stdout, stderr };
};

describe.each(DIALECTS)('a start whose key does not open the stored credentials is refused (%s)', (dialect) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(dialect, { onDisk: true });
  });
  afterEach(() => database.drop());

  it('names ENCRYPTION_KEY when it is not the key that sealed them, and starts with it kept as a previous key', async () => {
    const first = key();
    await storeOneCredential({ DATABASE_URL: database.url, ENCRYPTION_KEY: first });
    const second = key();
    await expect(start({ DATABASE_URL: database.url, ENCRYPTION_KEY: second })).rejects.toThrow(
      /^ENCRYPTION_KEY is not the key that sealed 1 stored credential \(key id [0-9a-f]{8}\)\. Set ENCRYPTION_KEY to that key; to change keys, keep the old one in ENCRYPTION_KEYS_PREVIOUS; if it is lost for good, conveyor forget-credentials deletes what it sealed\.$/,
    );
    await start({ DATABASE_URL: database.url, ENCRYPTION_KEY: first });
    await start({ DATABASE_URL: database.url, ENCRYPTION_KEY: second, ENCRYPTION_KEYS_PREVIOUS: first });
  });

  it('starts with another key once conveyor forget-credentials --yes deleted what the lost one sealed', async () => {
    await storeOneCredential({ DATABASE_URL: database.url, ENCRYPTION_KEY: key() });
    const env = { DATABASE_URL: database.url, ENCRYPTION_KEY: key() };
    expect(await forget(env)).toEqual({
      code: 0,
      stdout:
        '1 connection and 0 OAuth clients cannot be opened with the keys given. Run again with --yes to delete them.\n',
      stderr: '',
    });
    await expect(start(env)).rejects.toThrow(/is not the key that sealed 1 stored credential/);
    expect((await forget(env, '--yes')).stdout).toBe(
      'Deleted 1 connection and 0 OAuth clients that no key given opens.\n',
    );
    expect((await forget(env)).stdout).toBe('Every stored credential opens with the keys given: nothing to forget.\n');
    await start(env);
  });

  it('forgets an OAuth client no key opens, with the connections made through it', async () => {
    const env = { DATABASE_URL: database.url, ENCRYPTION_KEY: key() };
    await storeOneCredential(env);
    const handle = openDatabase(database.url, createPinoLogger('silent'));
    try {
      const now = handle.codec.timestamp(new Date());
      await handle.db
        .insertInto('oauth_clients')
        .values({
          id: 'client-1',
          app_key: 'smtp',
          name: 'lost',
          active: handle.codec.bool(true),
          settings: 'v1.0badc0de.AAAA',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await handle.db.updateTable('connections').set({ oauth_client_id: 'client-1' }).execute();
    } finally {
      await handle.close();
    }
    expect((await forget(env, '--yes')).stdout).toBe(
      'Deleted 1 connection and 1 OAuth client that no key given opens.\n',
    );
    await start(env);
  });
});

describe('a start without the key file that sealed the stored credentials is refused', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'conveyor-secrets-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('does not make a new key in place of a lost one', async () => {
    const DATABASE_URL = join(directory, 'conveyor.db');
    const keyFile = join(directory, 'encryption.key');
    await storeOneCredential({ DATABASE_URL });
    const kept = readFileSync(keyFile, 'utf8');
    unlinkSync(keyFile);
    await expect(start({ DATABASE_URL })).rejects.toThrow(
      `1 stored credential cannot be read: ENCRYPTION_KEY is not set and the key file ${keyFile} that sealed them is missing. Put that file back from a backup (or set ENCRYPTION_KEY to its key), then start again; if the key is lost for good, conveyor forget-credentials deletes what it sealed.`,
    );
    expect(existsSync(keyFile)).toBe(false);

    writeFileSync(keyFile, `${key()}\n`);
    await expect(start({ DATABASE_URL })).rejects.toThrow(
      new RegExp(`^The key file ${keyFile} is not the key that sealed 1 stored credential`),
    );
    writeFileSync(keyFile, kept);
    await start({ DATABASE_URL });
  });

  it('forgets, without a key file, every stored credential, and then makes a new key', async () => {
    const DATABASE_URL = join(directory, 'conveyor.db');
    const keyFile = join(directory, 'encryption.key');
    await storeOneCredential({ DATABASE_URL });
    unlinkSync(keyFile);
    expect((await forget({ DATABASE_URL }, '--yes')).stdout).toBe(
      'Deleted 1 connection and 0 OAuth clients that no key given opens.\n',
    );
    expect(existsSync(keyFile)).toBe(false);
    await start({ DATABASE_URL });
    expect(existsSync(keyFile)).toBe(true);
  });

  it('makes a key file for an installation that has no credentials yet', async () => {
    await start({ DATABASE_URL: join(directory, 'conveyor.db') });
    expect(existsSync(join(directory, 'encryption.key'))).toBe(true);
  });
});
