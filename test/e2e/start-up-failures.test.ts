import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { type ServerProcess, startBuiltCli } from '../support/server-process.js';
import { storeOneCredential } from '../support/stored-credential.js';

const NOBODY = 65_534;
const KEY = 'a'.repeat(64);

/** How the process ended, and its last line's message: a JSON log line's `msg`, or the plain line. */
const ending = async (started: ServerProcess) => {
  const code = await started.exited;
  const output = started.output();
  const last = output.trimEnd().split('\n').at(-1) ?? '';
  let message = last;
  try {
    message = (JSON.parse(last) as { msg: string }).msg;
  } catch {}
  return { code, output, message };
};

/** Exit 1, no stack frame anywhere in the output, and the last line's message. */
const failure = async (started: ServerProcess) => {
  const { code, output, message } = await ending(started);
  expect(code, output).toBe(1);
  expect(output).not.toMatch(/^ {4}at /m);
  return message;
};

describe('a start that cannot succeed ends with one line naming the cause and the fix', () => {
  let cwd: string;
  const cleanups: Array<() => void> = [];
  beforeEach(() => {
    // Every process runs in an empty folder, so that what it creates there can be seen.
    cwd = mkdtempSync(join(tmpdir(), 'conveyor-start-'));
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
  });
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });
  const start = (env: Record<string, string>, command = 'start', as: { uid?: number; gid?: number } = {}) => {
    const started = startBuiltCli([command], env, { cwd, ...as });
    cleanups.push(() => started.child.kill('SIGKILL'));
    return started;
  };

  it('refuses a database URL of another kind, creating nothing', async () => {
    const message = await failure(start({ DATABASE_URL: 'mysql://root@localhost/x' }));
    expect(message).toMatch(/DATABASE_URL must be a postgres:\/\/ .*URL, or the path of a SQLite file/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('lists every bad variable, the encryption key too, in plain words', async () => {
    const message = await failure(
      start({ PORT: 'abc', LOG_LEVEL: 'loud', ENCRYPTION_KEY: 'short', NODE_ENV: 'staging', DATABASE_URL: ':memory:' }),
    );
    expect(message).toMatch(/^Invalid configuration: /);
    for (const name of ['PORT', 'LOG_LEVEL', 'ENCRYPTION_KEY', 'NODE_ENV']) expect(message).toContain(`${name} must`);
    expect(message).toContain('Correct these environment variables');
    expect(message).not.toMatch(/Invalid type|Expected|received/);
  });

  it('names a port in use, before making the data folder', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => holder.close());
    const { port } = holder.address() as { port: number };
    const message = await failure(start({ PORT: String(port) }));
    expect(message).toBe(
      `Cannot listen on port ${port} on 127.0.0.1: another program uses it. Stop that program, or set PORT to a free port.`,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('names a HOST that is not of this machine', async () => {
    const message = await failure(start({ HOST: '192.0.2.1', PORT: '39999', DATABASE_URL: ':memory:' }));
    expect(message).toMatch(/192\.0\.2\.1 is not an address of this machine\. Set HOST/);
  });

  it.each(['start', 'worker'])(
    'names a database server that does not answer (%s), creating nothing',
    async (command) => {
      const message = await failure(start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/conveyor' }, command));
      expect(message).toBe(
        'Cannot reach the database: nothing answers at 127.0.0.1:1/conveyor. Start PostgreSQL, or correct the host and port in DATABASE_URL.',
      );
      expect(readdirSync(cwd)).toEqual([]);
    },
  );

  it.runIf(DIALECTS.includes('postgres'))('names a database that does not exist', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.pathname = '/conveyor_no_such_database';
    const message = await failure(start({ DATABASE_URL: url.toString(), ENCRYPTION_KEY: KEY }));
    expect(message).toMatch(
      /^The database "conveyor_no_such_database" does not exist at .*\. Create it \(createdb conveyor_no_such_database\), or correct the database name in DATABASE_URL\.$/,
    );
  });

  it('refuses a postgres:// URL that is not a URL', async () => {
    const message = await failure(start({ DATABASE_URL: 'postgres://conveyor@db:port/conveyor' }));
    expect(message).toContain('DATABASE_URL is not a valid URL');
  });

  it('names a data path that passes through a file', async () => {
    writeFileSync(join(cwd, 'a-file'), '');
    const message = await failure(start({ DATABASE_URL: join(cwd, 'a-file', 'data', 'conveyor.db') }));
    expect(message).toBe(
      `Cannot use the data folder ${join(cwd, 'a-file', 'data')}: ${join(cwd, 'a-file')} is not a folder. Set DATABASE_URL to a file in a folder this user can write, or correct that folder.`,
    );
  });

  it('fails fast on a data path where no folder can be made', async () => {
    const began = Date.now();
    const message = await failure(start({ DATABASE_URL: '/proc/nope/conveyor.db' }));
    expect(message).toMatch(/^Cannot create the data folder \/proc\/nope: .* Set DATABASE_URL to a file/);
    expect(Date.now() - began).toBeLessThan(10_000);
  });

  it.runIf(process.getuid?.() === 0)('names a data folder this user may not write', async () => {
    // Run as nobody, in a folder that root owns: the way an installation's permissions go wrong.
    chmodSync(cwd, 0o755);
    mkdirSync(join(cwd, 'data'), { mode: 0o755 });
    const message = await failure(start({ HOME: cwd }, 'start', { uid: NOBODY, gid: NOBODY }));
    expect(message).toBe(
      `Cannot use the data folder ./data: this user may not write to ./data. Set DATABASE_URL to a file in a folder this user can write, or correct that folder.`,
    );
    expect(readdirSync(join(cwd, 'data'))).toEqual([]);
  });

  it('names an encryption key that does not open the stored credentials, before serving anything', async () => {
    const DATABASE_URL = join(cwd, 'conveyor.db');
    await storeOneCredential({ DATABASE_URL, ENCRYPTION_KEY: KEY });
    const message = await failure(start({ DATABASE_URL, ENCRYPTION_KEY: 'b'.repeat(64) }));
    expect(message).toMatch(
      /^ENCRYPTION_KEY is not the key that sealed 1 stored credential \(key id [0-9a-f]{8}\)\. Set ENCRYPTION_KEY/,
    );
  });

  it('names a file that is not a SQLite database', async () => {
    writeFileSync(join(cwd, 'notes.db'), 'These are my notes, not a database. '.repeat(40));
    const message = await failure(start({ DATABASE_URL: join(cwd, 'notes.db') }));
    expect(message).toMatch(/notes\.db is not a usable SQLite database\. Restore it from a backup/);
  });
});
