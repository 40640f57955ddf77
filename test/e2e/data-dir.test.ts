import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listeningPort, type ServerProcess, startBuiltCli } from '../support/server-process.js';

describe('conveyor start --data-dir', () => {
  let scratch = '';
  let server: ServerProcess | null = null;
  afterEach(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
      server = null;
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it('keeps the database and the generated key in the folder given, and nothing anywhere else', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'conveyor-data-dir-'));
    const [home, cwd, folder] = ['home', 'cwd', 'data-here'].map((name) => join(scratch, name)) as [
      string,
      string,
      string,
    ];
    mkdirSync(home);
    mkdirSync(cwd);
    server = startBuiltCli(['start', '--data-dir', folder], { HOME: home, PORT: '0' }, { cwd });
    const port = await listeningPort(server);
    expect((await fetch(`http://127.0.0.1:${port}/healthcheck`)).status).toBe(200);
    expect(readdirSync(folder)).toEqual(expect.arrayContaining(['conveyor.db', 'encryption.key']));
    expect(readdirSync(cwd)).toEqual([]);
    expect(existsSync(join(home, '.conveyor'))).toBe(false);
  });
});
