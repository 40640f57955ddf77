import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE } from '../../core/domain/release.js';
import { listeningPort, type ServerProcess, spawnServer } from '../support/server-process.js';

const run = promisify(execFile);
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const versionOf = (packageDirectory: string) =>
  (JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as { version: string }).version;

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
    // The library's entry points, with their declarations (and maps) beside the code.
    for (const entry of ['composition/library/index', 'composition/library/testing', 'adapters/apps/sdk/index']) {
      expect(files).toEqual(expect.arrayContaining([`package/dist/${entry}.js`, `package/dist/${entry}.d.ts`]));
      expect(files).toContain(`package/dist/${entry}.d.ts.map`);
    }
    expect(
      files.filter((f) =>
        /\.test\.|(?<!\.d)\.ts$|tsbuildinfo|^package\/(test|scripts|core|adapters|composition|examples)\//.test(f),
      ),
    ).toEqual([]);
  });

  it('embeds as a library: examples/embed type checks against the installed declarations and runs', async () => {
    const project = join(scratch, 'embed');
    mkdirSync(project);
    for (const part of ['package.json', 'tsconfig.json', 'src']) {
      cpSync(join(REPOSITORY, 'examples', 'embed', part), join(project, part), { recursive: true });
    }
    // npm installs the tarball as a user's project would, but without install scripts: the one
    // dependency that has one, better-sqlite3, would compile from source a second time (no prebuilt
    // binary is reachable here; the global install above already compiled it). Its binary is taken
    // from the repository's own install of the same version instead.
    await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], {
      cwd: project,
      maxBuffer: 16 * 1024 * 1024,
    });
    const sqlite = join(project, 'node_modules', 'better-sqlite3');
    const built = join(REPOSITORY, 'node_modules', 'better-sqlite3');
    expect(versionOf(sqlite), 'better-sqlite3 installed in the example = the repository’s').toBe(versionOf(built));
    mkdirSync(join(sqlite, 'build', 'Release'), { recursive: true });
    copyFileSync(
      join(built, 'build', 'Release', 'better_sqlite3.node'),
      join(sqlite, 'build', 'Release', 'better_sqlite3.node'),
    );

    // strict, against the .d.ts files of the installed package (tsconfig.json of the example).
    await run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', project], { cwd: project });
    const { stdout } = await run(process.execPath, [join(project, 'dist', 'main.js')], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', HOME: join(scratch, 'embed-home') },
    });
    expect(stdout).toMatch(/^Conveyor answers on http:\/\/127\.0\.0\.1:\d+ /);
    expect(stdout).toContain('webhook answered 204\n');
    expect(stdout).toContain('event: a run of the flow ended in success\n');
    expect(stdout).toContain('execution success: HELLO FROM THE TYPED API\n');
    expect(readdirSync(project).sort()).toEqual([
      'dist',
      'node_modules',
      'package-lock.json',
      'package.json',
      'src',
      'tsconfig.json',
    ]);
  }, 240_000);

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
