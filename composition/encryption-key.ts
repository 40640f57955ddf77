import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Config, ConfigError } from './config.js';
import { ensureDirectory } from './data-directory.js';
import { decodeKeyText, KEY_BYTES, KEY_TEXT_RULE } from './key-text.js';

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
  return keyFromFile(join(config.dataDirectory, 'encryption.key'));
};

/** The current key first, then the previous ones that still open older values. */
export const resolveEncryptionKeys = (config: Config): Uint8Array[] => [
  resolveEncryptionKey(config),
  ...config.previousEncryptionKeys.map((key, i) => decodeKey(key, `ENCRYPTION_KEYS_PREVIOUS[${i}]`)),
];
