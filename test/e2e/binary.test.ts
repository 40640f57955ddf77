import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE } from '../../core/domain/release.js';
import { buildBinary } from '../../scripts/build-binary.js';
import { type Account, callApi as api, newWebhookFlow } from '../support/api-client.js';
import { createTestDatabase, DIALECTS } from '../support/databases.js';
import { eventually } from '../support/engine-flows.js';
import { listeningPort, type ServerProcess, spawnServer } from '../support/server-process.js';

const run = promisify(execFile);

const ci = process.env.CI === 'true' || process.env.CI === '1';
/** What building needs beyond the devDependencies: the console built, and a node that can be a SEA. */
const missing = [
  ...(existsSync('dist/web/index.html') ? [] : ['dist/web (npm run build)']),
  ...(readFileSync(process.execPath).includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2')
    ? []
    : [`a node with single executable support (${process.execPath} has none)`]),
];
if (missing.length > 0 && !ci) {
  process.stderr.write(`\n*** The single executable is NOT tested: missing ${missing.join(' and ')}. ***\n\n`);
}

const admin: Account = { email: 'ada@example.com', password: 'a long password', fullName: 'Ada' };

// Builds the file (about 10 s), then runs it alone, as a machine without Node.js would.
describe.skipIf(missing.length > 0 && !ci)('the single executable (npm run build:binary)', () => {
  let scratch = '';
  let binary = '';
  let empty = '';
  let home = '';
  const running: ServerProcess[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'conveyor-binary-'));
    const built = await buildBinary({ out: join(scratch, 'build'), log: () => {} });
    expect(built.path).toBe(join(scratch, 'build', 'bin', 'conveyor-linux-x64'));
    const [digest] = readFileSync(built.checksumPath, 'utf8').split('  ');
    expect(readFileSync(built.checksumPath, 'utf8')).toBe(`${digest}  conveyor-linux-x64\n`);
    expect(createHash('sha256').update(readFileSync(built.path)).digest('hex')).toBe(digest);
    binary = join(scratch, 'bin', 'conveyor');
    empty = join(scratch, 'empty');
    home = join(scratch, 'home');
    for (const dir of ['bin', 'empty', 'home', 'somewhere']) mkdirSync(join(scratch, dir));
    copyFileSync(built.path, binary);
  }, 120_000);

  afterAll(async () => {
    for (const server of running) server.child.kill('SIGKILL');
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** Only what a shell on a machine without Node.js has. */
  const bare = (env: Record<string, string> = {}) => ({ PATH: empty, HOME: home, ...env });

  const start = async (env: Record<string, string> = {}) => {
    const server = spawnServer(binary, ['start'], {
      cwd: join(scratch, 'somewhere'),
      env: bare({ PORT: '0', ...env }),
    });
    running.push(server);
    return { server, base: `http://127.0.0.1:${await listeningPort(server)}` };
  };

  const stop = async (server: ServerProcess) => {
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
  };

  it('finds no node on its PATH, and tells its release', async () => {
    expect(spawnSync('/bin/sh', ['-c', 'command -v node'], { env: bare() }).status).not.toBe(0);
    const { stdout } = await run(binary, ['--version'], { env: bare() });
    expect(stdout.trim()).toBe(RELEASE);
    const help = await run(binary, ['--help'], { env: bare() });
    expect(help.stdout).toContain('Usage: conveyor <command>');
  });

  it('serves the console and the API on SQLite in ~/.conveyor, runs a code step, and finds its flow after a restart', {
    timeout: 60_000,
  }, async () => {
    const first = await start();
    const page = await fetch(`${first.base}/`);
    expect(await page.text()).toMatch(/<script type="module"[^>]*src="\/assets\//);
    // Installation and sign-in hash with argon2: its addon loads from the cache folder.
    const { token, flowId, triggerId, actionId } = await newWebhookFlow(first.base, admin);
    // The code step: the sandbox's worker thread and its WebAssembly, from the cache folder too.
    await api(first.base, 'PATCH', `/steps/${actionId}`, token, {
      appKey: 'code',
      key: 'runJavascript',
      parameters: {
        inputs: [{ key: 'name', value: `{{step.${triggerId}.body.name}}` }],
        codeSnippet: "const code = (inputs) => ({ greeting: 'Hello, ' + inputs.name + '!' });",
      },
    });
    await api(first.base, 'PATCH', `/flows/${flowId}/status`, token, { active: true });
    const ack = await fetch(`${first.base}/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    });
    expect(ack.status).toBe(204);
    const executions = () => api(first.base, 'GET', `/executions?flowId=${flowId}`, token);
    const done = await eventually(executions, (res) => res.data[0]?.status !== 'running', 20_000);
    expect(done.data[0].status, first.server.output()).toBe('success');
    const steps = (await api(first.base, 'GET', `/executions/${done.data[0].id}/execution-steps`, token)).data;
    expect(steps.map((s: { dataOut: unknown }) => s.dataOut)).toMatchObject([
      { body: { name: 'Ada' } },
      { output: { greeting: 'Hello, Ada!' } },
    ]);
    await stop(first.server);

    expect(readdirSync(join(home, '.conveyor'))).toEqual(expect.arrayContaining(['conveyor.db', 'encryption.key']));
    expect(readdirSync(join(scratch, 'somewhere'))).toEqual([]);
    expect(readdirSync(join(home, '.cache', 'conveyor'))).toEqual([expect.stringMatching(`^${RELEASE}-[0-9a-f]+$`)]);

    const second = await start();
    const again = (await api(second.base, 'POST', '/access-tokens', undefined, admin)).data.token;
    const flow = (await api(second.base, 'GET', `/flows/${flowId}`, again)).data;
    expect(flow).toMatchObject({ id: flowId, active: true });
    await stop(second.server);

    // A database command of the CLI, on the same folder.
    const exported = await run(binary, ['export-flow', flowId, '--user', admin.email], { env: bare() });
    expect(exported.stdout).toContain('runJavascript');
  });

  it.skipIf(!DIALECTS.includes('postgres'))(
    'migrates and serves a Postgres database',
    { timeout: 30_000 },
    async () => {
      const database = await createTestDatabase('postgres');
      try {
        const migrated = await run(binary, ['migrate'], { env: bare({ DATABASE_URL: database.url }) });
        expect(migrated.stdout + migrated.stderr).not.toMatch(/error/i);
        const { server, base } = await start({ DATABASE_URL: database.url, ENCRYPTION_KEY: 'c'.repeat(64) });
        await api(base, 'POST', '/installation/users', undefined, admin);
        expect((await api(base, 'POST', '/access-tokens', undefined, admin)).data.token).toEqual(expect.any(String));
        await stop(server);
        const worker = spawnServer(binary, ['worker'], {
          env: bare({ DATABASE_URL: database.url, ENCRYPTION_KEY: 'c'.repeat(64) }),
        });
        running.push(worker);
        await eventually(
          async () => worker.output(),
          (output) => output.includes('Conveyor worker running'),
          10_000,
        );
        await stop(worker);
      } finally {
        await database.drop();
      }
    },
  );
});
