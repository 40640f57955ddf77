import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { resolveEncryptionKey } from './encryption-key.js';

const KEY = randomBytes(32);

describe('resolveEncryptionKey', () => {
  describe('with ENCRYPTION_KEY', () => {
    it('decodes 64 hex characters to 32 bytes', () => {
      const key = resolveEncryptionKey(loadConfig({ ENCRYPTION_KEY: KEY.toString('hex') }));
      expect(key).toBeInstanceOf(Uint8Array);
      expect(key).toHaveLength(32);
      expect(Buffer.from(key).equals(KEY)).toBe(true);
    });

    it('accepts upper-case hex', () => {
      const key = resolveEncryptionKey(loadConfig({ ENCRYPTION_KEY: KEY.toString('hex').toUpperCase() }));
      expect(Buffer.from(key).equals(KEY)).toBe(true);
    });

    it('decodes base64 (padded or url-safe) to 32 bytes', () => {
      for (const text of [KEY.toString('base64'), KEY.toString('base64url')]) {
        const key = resolveEncryptionKey(loadConfig({ ENCRYPTION_KEY: text }));
        expect(key).toHaveLength(32);
        expect(Buffer.from(key).equals(KEY)).toBe(true);
      }
    });

    it('refuses text that is neither hex nor base64, even when Node would decode it', () => {
      expect(() => loadConfig({ ENCRYPTION_KEY: `!!!!!!!!!!${'A'.repeat(43)}` })).toThrow(ConfigError);
    });

    it('takes the explicit key even in production and for a file database', () => {
      const config = loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: '/nonexistent/conveyor.db',
        ENCRYPTION_KEY: KEY.toString('base64'),
      });
      expect(Buffer.from(resolveEncryptionKey(config)).equals(KEY)).toBe(true);
      expect(existsSync('/nonexistent')).toBe(false);
    });

    it.each([
      ['16 bytes of hex', randomBytes(16).toString('hex')],
      ['16 bytes of base64', randomBytes(16).toString('base64')],
      ['33 bytes of base64', randomBytes(33).toString('base64')],
      ['64 bytes of hex', randomBytes(64).toString('hex')],
      ['a short word', 'secret'],
    ])('is refused by the configuration when of the wrong length (%s)', (_, text) => {
      expect(() => loadConfig({ ENCRYPTION_KEY: text })).toThrow(ConfigError);
      expect(() => loadConfig({ ENCRYPTION_KEY: text })).toThrow(/ENCRYPTION_KEY must be 32 bytes/);
    });
  });

  describe('without ENCRYPTION_KEY', () => {
    let directory: string;
    beforeEach(() => {
      directory = mkdtempSync(join(tmpdir(), 'conveyor-key-'));
    });
    afterEach(() => {
      rmSync(directory, { recursive: true, force: true });
    });

    it('is refused by the configuration in production, before any file is written', () => {
      for (const DATABASE_URL of [':memory:', join(directory, 'conveyor.db')]) {
        expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL })).toThrow(
          /ENCRYPTION_KEY is required when NODE_ENV=production/,
        );
      }
      expect(readdirSync(directory)).toEqual([]);
    });

    it('creates encryption.key (mode 0600) beside a SQLite file, and reuses it', () => {
      const config = loadConfig({ DATABASE_URL: join(directory, 'conveyor.db') });
      const file = join(directory, 'encryption.key');

      const first = resolveEncryptionKey(config);

      expect(first).toHaveLength(32);
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(Buffer.from(first))).toBe(true);

      const second = resolveEncryptionKey(config);
      expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
      expect(readdirSync(directory)).toEqual(['encryption.key']);
    });

    it('gives processes starting at the same moment one and the same key', async () => {
      const script = `import { resolveEncryptionKey } from './composition/encryption-key.ts';
        import { loadConfig } from './composition/config.ts';
        process.stdout.write(Buffer.from(resolveEncryptionKey(loadConfig({ DATABASE_URL: process.argv[1] }))).toString('hex'));`;
      const keys = await Promise.all(
        Array.from(
          { length: 4 },
          () =>
            new Promise<string>((resolve, reject) => {
              execFile(
                process.execPath,
                ['--import', 'tsx', '--input-type=module', '-e', script, join(directory, 'conveyor.db')],
                (error, stdout) => (error ? reject(error) : resolve(stdout)),
              );
            }),
        ),
      );
      expect(new Set(keys).size).toBe(1);
      expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
      expect(readdirSync(directory)).toEqual(['encryption.key']);
    });

    it('gives different installations different keys', () => {
      const a = resolveEncryptionKey(loadConfig({ DATABASE_URL: join(directory, 'a', 'conveyor.db') }));
      const b = resolveEncryptionKey(loadConfig({ DATABASE_URL: join(directory, 'b', 'conveyor.db') }));
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    });

    it('creates missing directories on the way to the database file, and fails at once where none can be made', () => {
      const config = loadConfig({ DATABASE_URL: join(directory, 'nested', 'deeper', 'conveyor.db') });
      const key = resolveEncryptionKey(config);
      expect(key).toHaveLength(32);
      expect(existsSync(join(directory, 'nested', 'deeper', 'encryption.key'))).toBe(true);
      // Node's recursive mkdir never returns here.
      expect(() => resolveEncryptionKey(loadConfig({ DATABASE_URL: '/proc/nope/conveyor.db' }))).toThrow(/ENOENT/);
    });

    it('uses a key file that is already there', () => {
      writeFileSync(join(directory, 'encryption.key'), `${KEY.toString('hex')}\n`, { mode: 0o600 });
      const key = resolveEncryptionKey(loadConfig({ DATABASE_URL: join(directory, 'conveyor.db') }));
      expect(Buffer.from(key).equals(KEY)).toBe(true);
    });

    it('throws a ConfigError naming the file when the key file is not a valid key', () => {
      const file = join(directory, 'encryption.key');
      writeFileSync(file, 'too short\n', { mode: 0o600 });
      const config = loadConfig({ DATABASE_URL: join(directory, 'conveyor.db') });
      expect(() => resolveEncryptionKey(config)).toThrow(ConfigError);
      expect(() => resolveEncryptionKey(config)).toThrow(file);
      expect(readFileSync(file, 'utf8')).toBe('too short\n');
    });

    it("returns a throwaway 32-byte key for ':memory:' without writing files", () => {
      const config = loadConfig({ DATABASE_URL: ':memory:' });

      const first = resolveEncryptionKey(config);
      const second = resolveEncryptionKey(config);

      expect(first).toHaveLength(32);
      expect(second).toHaveLength(32);
      // A fresh key on every call: nothing was stored to be read back.
      expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    });
  });
});
