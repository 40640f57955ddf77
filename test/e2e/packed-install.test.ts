import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE } from '../../core/domain/release.js';
import { listeningPort, type ServerProcess, spawnServer } from '../support/server-process.js';

const run = promisify(execFile);

// Packs the repository and installs the tarball globally, as a user would; better-sqlite3 has no
// reachable prebuilt binary here and compiles from source (about a minute), so this runs in CI
// (.ci/run) and by `npm run test:pack`, not in every `npm test`.
describe.skipIf(process.env.TEST_PACK !== '1')('the packed package, installed globally (npm run test:pack)', () => {
  let scratch = '';
  let tarball = '';
  let prefix = '';
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'conveyor-pack-'));
    prefix = join(scratch, 'global');
    // npm pack runs prepack (a clean dist) and prepare (the build), as npm publish would.
    const { stdout } = await run('npm', ['pack', '--pack-destination', scratch], { maxBuffer: 16 * 1024 * 1024 });
    tarball = join(scratch, stdout.trim().split('\n').at(-1) ?? '');
    await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      maxBuffer: 16 * 1024 * 1024,
    });
  }, 300_000);

  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('holds the compiled program and its documentation, not the tests or the sources', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n');
    expect(files).toContain('package/dist/composition/cli.js');
    expect(files).toContain('package/dist/adapters/apps/code/sandbox-worker.js');
    expect(files).toContain('package/README.md');
    expect(files).toContain('package/docs/operations.md');
    expect(files).toContain('package/dist/web/index.html');
    expect(files.filter((f) => /\.test\.|\.ts$|tsbuildinfo|^package\/(test|scripts|core|adapters)\//.test(f))).toEqual(
      [],
    );
  });

  it('runs with conveyor start alone, from any directory, keeping its data in ~/.conveyor', async () => {
    const home = join(scratch, 'home');
    const cwd = join(scratch, 'somewhere');
    mkdirSync(home);
    mkdirSync(cwd);
    // Only what a shell on a fresh machine has: no DATABASE_URL, ENCRYPTION_KEY or NODE_ENV.
    server = spawnServer(join(prefix, 'bin', 'conveyor'), ['start'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: home, PORT: '0' },
    });
    const port = await listeningPort(server);
    const base = `http://127.0.0.1:${port}`;

    expect((await fetch(`${base}/healthcheck`)).status).toBe(200);
    // The web console comes built in the package.
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/<script type="module"[^>]*src="\/assets\//);
    const info = (await (await fetch(`${base}/api/v1/service/info`)).json()) as {
      data: { installationCompleted: boolean; version: string };
    };
    expect(info.data).toMatchObject({ installationCompleted: false, version: RELEASE });
    const install = await fetch(`${base}/api/v1/installation/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'a long password', fullName: 'Ada' }),
    });
    expect(install.status).toBe(204);
    const after = (await (await fetch(`${base}/api/v1/service/info`)).json()) as typeof info;
    expect(after.data.installationCompleted).toBe(true);

    expect(readdirSync(join(home, '.conveyor'))).toEqual(expect.arrayContaining(['conveyor.db', 'encryption.key']));
    expect(readdirSync(cwd)).toEqual([]);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = null;
  });

  it('prints its usage for conveyor --help', async () => {
    const { stdout } = await run(join(prefix, 'bin', 'conveyor'), ['--help'], {
      env: { PATH: process.env.PATH ?? '', HOME: join(scratch, 'home') },
    });
    expect(stdout).toContain('Usage: conveyor <command>');
    expect(stdout).toContain('start');
  });
});
