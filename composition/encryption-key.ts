import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Config, ConfigError } from './config.js';

const KEY_BYTES = 32;

const decodeKey = (text: string, origin: string): Uint8Array => {
  const trimmed = text.trim();
  const hex = /^[0-9a-f]{64}$/i.test(trimmed);
  // Node's base64 decoder skips characters it does not know; refuse them instead of guessing.
  const base64 = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed);
  const bytes = hex ? Buffer.from(trimmed, 'hex') : base64 ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (bytes.length !== KEY_BYTES) {
    throw new ConfigError(
      `${origin} must be ${KEY_BYTES} bytes, as 64 hex characters or base64 (openssl rand -base64 32).`,
    );
  }
  return new Uint8Array(bytes);
};

/** Reads the key file, or creates it when no process has yet. */
const keyFromFile = (file: string): Uint8Array => {
  try {
    return decodeKey(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
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
  return decodeKey(readFileSync(file, 'utf8'), file);
};

/**
 * The key that encrypts stored credentials. `ENCRYPTION_KEY` when set; in production it must be.
 * Otherwise a key is generated once and kept in `encryption.key` in the data directory (beside the
 * SQLite file), so `npm start` needs no set-up. An in-memory database gets a throwaway key.
 */
export const resolveEncryptionKey = (config: Config): Uint8Array => {
  if (config.encryptionKey) return decodeKey(config.encryptionKey, 'ENCRYPTION_KEY');
  if (config.nodeEnv === 'production') {
    throw new ConfigError(
      'ENCRYPTION_KEY is required when NODE_ENV=production (generate one: openssl rand -base64 32).',
    );
  }
  if (config.databaseUrl === ':memory:') return new Uint8Array(randomBytes(KEY_BYTES));
  return keyFromFile(join(config.dataDirectory, 'encryption.key'));
};

/** The current key first, then the previous ones that still open older values. */
export const resolveEncryptionKeys = (config: Config): Uint8Array[] => [
  resolveEncryptionKey(config),
  ...config.previousEncryptionKeys.map((key, i) => decodeKey(key, `ENCRYPTION_KEYS_PREVIOUS[${i}]`)),
];
