import { execFile } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE } from '../../core/domain/release.js';
import { listeningPort, type ServerProcess, spawnServer } from '../support/server-process.js';

const run = promisify(execFile);
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const versionOf = (packageDirectory: string) =>
  (JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as { version: string }).version;

// Packs the repository and installs the tarball globally and into a project, as users would; this
// takes a clean build of the package (a minute or two), so it runs in CI (.ci/run) and by
// `npm run test:pack`, not in every `npm test`.
//
// npm installs the tarball without install scripts: the one dependency that has one, better-sqlite3,
// would compile from source (no prebuilt binary is reachable here) for about a minute per install,
// which is its own business, not this package's. Its binary is taken from the repository's own
// install of the same version instead.
const withRepositorySqlite = (installed: string) => {
  const built = join(REPOSITORY, 'node_modules', 'better-sqlite3');
  expect(versionOf(installed), 'better-sqlite3 installed = the repository’s').toBe(versionOf(built));
  mkdirSync(join(installed, 'build', 'Release'), { recursive: true });
  copyFileSync(
    join(built, 'build', 'Release', 'better_sqlite3.node'),
    join(installed, 'build', 'Release', 'better_sqlite3.node'),
  );
};
const INSTALL = ['--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'];

describe.skipIf(process.env.TEST_PACK !== '1')('the packed package, installed globally (npm run test:pack)', () => {
  let scratch = '';
  let tarball = '';
  let prefix = '';
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'conveyor-pack-'));
    prefix = join(scratch, 'global');
    // npm pack runs prepack (a clean dist) and prepare (the build), as npm publish would. It runs in
    // a copy of the checkout: in the checkout itself, the other tests that start dist/ would find it
    // emptied while the build runs.
    const source = join(scratch, 'source');
    const { stdout: listed } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: REPOSITORY,
      maxBuffer: 16 * 1024 * 1024,
    });
    for (const file of listed.split('\0').filter((f) => f && existsSync(join(REPOSITORY, f)))) {
      mkdirSync(dirname(join(source, file)), { recursive: true });
      copyFileSync(join(REPOSITORY, file), join(source, file));
    }
    symlinkSync(join(REPOSITORY, 'node_modules'), join(source, 'node_modules'));
    const { stdout } = await run('npm', ['pack', '--pack-destination', scratch], {
      cwd: source,
      maxBuffer: 16 * 1024 * 1024,
    });
    tarball = join(scratch, stdout.trim().split('\n').at(-1) ?? '');
    await run('npm', ['install', '-g', '--prefix', prefix, ...INSTALL, tarball], { maxBuffer: 16 * 1024 * 1024 });
    withRepositorySqlite(join(prefix, 'lib', 'node_modules', 'conveyor', 'node_modules', 'better-sqlite3'));
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
    await run('npm', ['install', ...INSTALL, tarball], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
    withRepositorySqlite(join(project, 'node_modules', 'better-sqlite3'));

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
