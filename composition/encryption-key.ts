import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { keyId } from '../adapters/auth/secret-box.js';
import { type Config, ConfigError } from './config.js';
import { ensureDirectory } from './data-directory.js';
import { decodeKeyText, KEY_BYTES, KEY_TEXT_RULE } from './key-text.js';
import { StartupFailure } from './start-up-failure.js';

/** A key that loadConfig has checked, or the key file's content, which nothing has checked yet. */
const decodeKey = (text: string, origin: string): Uint8Array => {
  const key = decodeKeyText(text);
  if (key === null) throw new ConfigError(`${origin} ${KEY_TEXT_RULE}.`);
  return key;
};

/** Reads the key file, or creates it when no process has yet. */
const keyFromFile = (file: string): Uint8Array => {
  try {
    return decodeKey(readFileSync(file, 'utf8'), `The key file ${file}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  ensureDirectory(dirname(file));
  // Written whole to a private name, then linked into place: a process starting at the same
  // moment sees either no file or the complete key, and linking fails if another key won.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  return decodeKey(readFileSync(file, 'utf8'), `The key file ${file}`);
};

/**
 * The key that encrypts stored credentials. `ENCRYPTION_KEY` when set (in production it must be:
 * loadConfig sees to that, and to the keys' form). Otherwise a key is generated once and kept in
 * `encryption.key` in the data directory (beside the SQLite file), so `npm start` needs no set-up.
 * An in-memory database gets a throwaway key.
 */
export const resolveEncryptionKey = (config: Config): Uint8Array => {
  if (config.encryptionKey) return decodeKey(config.encryptionKey, 'ENCRYPTION_KEY');
  if (config.databaseUrl === ':memory:') return new Uint8Array(randomBytes(KEY_BYTES));
  return keyFromFile(keyFileOf(config));
};

/**
 * The ids of the keys this configuration has (current and previous), without making a key file
 * where there is none: what `conveyor forget-credentials` keeps.
 */
export const presentKeyIds = (config: Config): string[] =>
  (currentKeyExists(config) ? resolveEncryptionKeys(config) : previousKeys(config)).map(keyId);

/** Where the generated key is kept when ENCRYPTION_KEY is not set. */
const keyFileOf = (config: Config): string => join(config.dataDirectory, 'encryption.key');

/** Whether the current key is there without being made now: ENCRYPTION_KEY, or a key file written before. */
const currentKeyExists = (config: Config): boolean => config.encryptionKey !== null || existsSync(keyFileOf(config));

const credentials = (count: number) => (count === 1 ? '1 stored credential' : `${count} stored credentials`);

/**
 * Refuses a start whose keys cannot open the secrets already stored (`stored`: how many each key id
 * sealed), before anything is read or written with them. A lost key file would otherwise be
 * replaced by a new key at once, and a mistyped ENCRYPTION_KEY would seal new credentials beside
 * old ones no key opens any more; either way every connection would fail later, one by one.
 * `keys` is asked for only once the key file is known to exist, so that a missing one is not made.
 */
export const checkStoredSecrets = (
  config: Config,
  stored: ReadonlyMap<string, number>,
  keys: () => readonly Uint8Array[],
): void => {
  const total = [...stored.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return;
  const file = keyFileOf(config);
  if (!currentKeyExists(config)) {
    throw new StartupFailure(
      `${credentials(total)} cannot be read: ENCRYPTION_KEY is not set and the key file ${file} that sealed them is missing. Put that file back from a backup (or set ENCRYPTION_KEY to its key), then start again; if the key is lost for good, conveyor forget-credentials deletes what it sealed.`,
    );
  }
  const known = new Set(keys().map(keyId));
  const unknown = [...stored].filter(([id]) => !known.has(id));
  if (unknown.length === 0) return;
  const count = unknown.reduce((sum, [, n]) => sum + n, 0);
  const origin = config.encryptionKey ? 'ENCRYPTION_KEY' : `The key file ${file}`;
  throw new StartupFailure(
    `${origin} is not the key that sealed ${credentials(count)} (key id ${unknown.map(([id]) => id).join(', ')}). Set ENCRYPTION_KEY to that key; to change keys, keep the old one in ENCRYPTION_KEYS_PREVIOUS; if it is lost for good, conveyor forget-credentials deletes what it sealed.`,
  );
};

const previousKeys = (config: Config): Uint8Array[] =>
  config.previousEncryptionKeys.map((key, i) => decodeKey(key, `ENCRYPTION_KEYS_PREVIOUS[${i}]`));

/** The current key first, then the previous ones that still open older values. */
export const resolveEncryptionKeys = (config: Config): Uint8Array[] => [
  resolveEncryptionKey(config),
  ...previousKeys(config),
];
