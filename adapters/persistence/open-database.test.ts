import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CapturingLogger } from '../../test/support/capturing-logger.js';
import { isDatabaseUrl, openDatabase } from './open-database.js';

describe('openDatabase', () => {
  it.each(['mysql://root@localhost/x', 'sqlite:///var/lib/conveyor.db', 'file:///tmp/conveyor.db'])(
    'refuses %s rather than take it for a SQLite path',
    (url) => {
      expect(isDatabaseUrl(url)).toBe(false);
      expect(() => openDatabase(url, new CapturingLogger())).toThrow(/postgres:\/\/ URL or a SQLite file path/);
      expect(existsSync(url.split('://')[0] ?? '')).toBe(false);
      expect(existsSync(`${url.split('://')[0]}:`)).toBe(false);
    },
  );

  it('takes Postgres URLs and SQLite paths', () => {
    for (const url of ['postgres://db/x', 'postgresql://db/x', './data/conveyor.db', '/srv/c.db', ':memory:']) {
      expect(isDatabaseUrl(url)).toBe(true);
    }
  });
});
