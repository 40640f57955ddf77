import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/support/databases.js';
import { storeOneCredential } from '../test/support/stored-credential.js';
import { loadConfig } from './config.js';
import { startInstance } from './instance.js';

const start = (env: Record<string, string>) =>
  startInstance(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', QUEUE: 'local', ...env })).then((c) => c.close());

const key = () => randomBytes(32).toString('base64');

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
      /^ENCRYPTION_KEY is not the key that sealed 1 stored credential \(key id [0-9a-f]{8}\)\. Set ENCRYPTION_KEY to that key; to change keys, keep the old one in ENCRYPTION_KEYS_PREVIOUS\.$/,
    );
    await start({ DATABASE_URL: database.url, ENCRYPTION_KEY: first });
    await start({ DATABASE_URL: database.url, ENCRYPTION_KEY: second, ENCRYPTION_KEYS_PREVIOUS: first });
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
      `1 stored credential cannot be read: ENCRYPTION_KEY is not set and the key file ${keyFile} that sealed them is missing. Put that file back from a backup (or set ENCRYPTION_KEY to its key), then start again.`,
    );
    expect(existsSync(keyFile)).toBe(false);

    writeFileSync(keyFile, `${key()}\n`);
    await expect(start({ DATABASE_URL })).rejects.toThrow(
      new RegExp(`^The key file ${keyFile} is not the key that sealed 1 stored credential`),
    );
    writeFileSync(keyFile, kept);
    await start({ DATABASE_URL });
  });

  it('makes a key file for an installation that has no credentials yet', async () => {
    await start({ DATABASE_URL: join(directory, 'conveyor.db') });
    expect(existsSync(join(directory, 'encryption.key'))).toBe(true);
  });
});
