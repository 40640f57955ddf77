import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../composition/cli.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/support/databases.js';
import { migrations } from '../persistence/migrations/index.js';

const PASSWORD = 'correct horse battery staple 42';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const DOCUMENT = {
  id: randomUUID(),
  name: 'Orders to mail',
  steps: [
    {
      id: randomUUID(),
      name: 'Order arrives',
      type: 'trigger',
      position: 1,
      appKey: 'webhook',
      key: 'catchRawWebhook',
      parameters: { workSynchronously: false },
      webhookPath: null,
    },
    {
      id: randomUUID(),
      name: null,
      type: 'action',
      position: 2,
      appKey: 'smtp',
      key: 'sendEmail',
      parameters: { to: 'a@example.com', subject: 'Order', body: 'Hi' },
      webhookPath: null,
    },
  ],
};

describe.each(DIALECTS)('conveyor database commands (%s)', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  let env: Record<string, string>;

  /** Runs the CLI in-process against the test database, collecting what it writes. */
  const cli = async (argv: string[], { extraEnv = {}, stdin = '' }: { extraEnv?: object; stdin?: string } = {}) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env: { ...env, ...extraEnv },
      stdin: Readable.from([stdin]),
    });
    return { code, stdout, stderr };
  };

  const install = async () => {
    const result = await cli(['create-admin', '--email', 'Ada@Example.com', '--full-name', 'Ada Lovelace'], {
      extraEnv: { CONVEYOR_ADMIN_PASSWORD: PASSWORD },
    });
    expect(result.stderr).not.toContain('conveyor:');
    expect(result.code).toBe(0);
    return result;
  };

  beforeEach(async () => {
    database = await createTestDatabase(dialect, { onDisk: true });
    dir = mkdtempSync(join(tmpdir(), 'conveyor-cli-db-'));
    env = { DATABASE_URL: database.url, ENCRYPTION_KEY: 'd'.repeat(64), LOG_LEVEL: 'debug' };
  });

  afterEach(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('migrate', () => {
    it('applies every migration once, then none, and exits', async () => {
      const first = await cli(['migrate']);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(new RegExp(`^Applied ${migrations.length} migrations: `));
      const again = await cli(['migrate']);
      expect(again).toMatchObject({ code: 0, stdout: 'The database is up to date: no migration applied.\n' });
    });

    it('fails with the configuration problem on one line', async () => {
      const { code, stdout, stderr } = await cli(['migrate'], { extraEnv: { DATABASE_POOL_SIZE: 'many' } });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(
        /^conveyor: Invalid configuration: DATABASE_POOL_SIZE must be a whole number\. Correct .*\n$/,
      );
    });
  });

  describe('create-admin', () => {
    it('completes the installation with the administrator, password from the environment', async () => {
      const { stdout } = await install();
      expect(stdout).toMatch(/^Created the administrator ada@example.com \(/);
      // The administrator is an active user the other commands can act for.
      const imported = await cli(['import-flow', writeDocument(), '--user', 'ada@example.com']);
      expect(imported.code).toBe(0);
    });

    it('reads the password from the first line of standard input', async () => {
      const { code } = await cli(['create-admin', '--email', 'ada@example.com', '--full-name', 'Ada'], {
        stdin: `${PASSWORD}\nignored\n`,
      });
      expect(code).toBe(0);
      const again = await cli(['create-admin', '--email', 'bob@example.com', '--full-name', 'Bob'], {
        stdin: `${PASSWORD}\n`,
      });
      expect(again.code).toBe(1);
    });

    it('never writes the password to its output or its logs', async () => {
      const viaEnv = await install();
      const viaStdin = await cli(['create-admin', '--email', 'b@example.com', '--full-name', 'B'], {
        stdin: `${PASSWORD}\n`,
      });
      for (const { stdout, stderr } of [viaEnv, viaStdin]) {
        // Debug logging is on, so the log lines the command does write are in stderr.
        expect(`${stdout}${stderr}`).not.toContain(PASSWORD);
      }
    });

    it('refuses on an installed instance with a one-line reason', async () => {
      await install();
      const { code, stdout, stderr } = await cli(['create-admin', '--email', 'bob@example.com', '--full-name', 'Bob'], {
        extraEnv: { CONVEYOR_ADMIN_PASSWORD: PASSWORD },
      });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.split('\n').filter((line) => line.startsWith('conveyor:'))).toEqual([
        'conveyor: Conveyor is already installed: administrators invite further users (the web app, or POST /api/v1/admin/users).',
      ]);
    });

    it.each([
      [
        'an invalid email',
        ['--email', 'not-an-email', '--full-name', 'X'],
        PASSWORD,
        /^conveyor: Cannot create the administrator: email /,
      ],
      [
        'a short password',
        ['--email', 'a@example.com', '--full-name', 'X'],
        'short',
        /^conveyor: Cannot create the administrator: password /,
      ],
    ])('refuses %s as the API does, and installs nothing', async (_, options, password, message) => {
      const { code, stdout, stderr } = await cli(['create-admin', ...options], {
        extraEnv: { CONVEYOR_ADMIN_PASSWORD: password },
      });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
      expect(stderr).not.toContain(password);
      await install();
    });

    it('is a usage error without a password', async () => {
      const { code, stderr } = await cli(['create-admin', '--email', 'a@example.com', '--full-name', 'A']);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^conveyor: No password: set CONVEYOR_ADMIN_PASSWORD/);
    });

    it('refuses a password on the command line', async () => {
      const { code, stderr } = await cli([
        'create-admin',
        '--email',
        'a@example.com',
        '--full-name',
        'A',
        '--password',
        PASSWORD,
      ]);
      expect(code).toBe(2);
      expect(stderr).toContain("Unknown option '--password'");
    });
  });

  const writeDocument = (document: unknown = DOCUMENT) => {
    const file = join(dir, `${randomUUID()}.json`);
    writeFileSync(file, JSON.stringify(document));
    return file;
  };

  describe('import-flow and export-flow', () => {
    beforeEach(install);

    it('import prints the new flow id, export prints its document, and both round-trip', async () => {
      const imported = await cli(['import-flow', writeDocument(), '--user', 'ada@example.com']);
      expect(imported.code).toBe(0);
      const flowId = imported.stdout.trim();
      expect(flowId).toMatch(UUID);
      expect(imported.stderr).toContain(`Imported "Orders to mail" as flow ${flowId}`);

      const exported = await cli(['export-flow', flowId, '--user', 'ada@example.com']);
      expect(exported.code).toBe(0);
      const document = JSON.parse(exported.stdout);
      expect(document.name).toBe('Orders to mail');
      expect(document.steps.map((s: { appKey: string; key: string }) => `${s.appKey}.${s.key}`)).toEqual([
        'webhook.catchRawWebhook',
        'smtp.sendEmail',
      ]);
      // Fresh ids each export, as over HTTP.
      expect(document.id).not.toBe(flowId);

      const output = join(dir, 'out.json');
      const toFile = await cli(['export-flow', flowId, '--user', 'ada@example.com', '--output', output]);
      expect(toFile).toMatchObject({ code: 0, stdout: '' });
      const reimported = await cli(['import-flow', output, '--user', 'ada@example.com']);
      expect(reimported.code).toBe(0);
      expect(reimported.stdout.trim()).not.toBe(flowId);
      expect(JSON.parse(readFileSync(output, 'utf8')).steps).toHaveLength(2);
    });

    it('import reads standard input for -', async () => {
      const { code, stdout } = await cli(['import-flow', '-', '--user', 'ada@example.com'], {
        stdin: JSON.stringify(DOCUMENT),
      });
      expect(code).toBe(0);
      expect(stdout.trim()).toMatch(UUID);
    });

    it.each([
      ['an unknown user', ['--user', 'nobody@example.com'], /^conveyor: No active user nobody@example.com: /m],
      ['a document that is not JSON', ['--user', 'ada@example.com', '--file', 'garbage'], /is not JSON/],
      ['a document without steps', ['--user', 'ada@example.com', '--file', 'nosteps'], /is not an export document/],
      ['a missing file', ['--user', 'ada@example.com', '--file', 'missing'], /^conveyor: Cannot read /m],
    ])('import fails with %s', async (_, options, message) => {
      const fileOption = options.indexOf('--file');
      const kind = fileOption === -1 ? 'good' : options[fileOption + 1];
      const user = options.slice(0, 2);
      const file =
        kind === 'garbage'
          ? (() => {
              const f = join(dir, 'garbage.json');
              writeFileSync(f, '{ not json');
              return f;
            })()
          : kind === 'nosteps'
            ? writeDocument({ name: 'Empty', steps: [] })
            : kind === 'missing'
              ? join(dir, 'missing.json')
              : writeDocument();
      const { code, stdout, stderr } = await cli(['import-flow', file, ...user]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
    });

    it('export fails for an unknown flow with a one-line reason', async () => {
      const { code, stdout, stderr } = await cli(['export-flow', randomUUID(), '--user', 'ada@example.com']);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^conveyor: Flow [0-9a-f-]+: .+\n$/m);
    });
  });

  describe('list-flows and list-users', () => {
    beforeEach(install);

    it('list the users as a table and as JSON', async () => {
      const table = await cli(['list-users']);
      expect(table.code).toBe(0);
      const [heading, row, ...rest] = table.stdout.trimEnd().split('\n');
      expect(heading).toMatch(/^ID +EMAIL +ROLE +STATUS +FULL NAME$/);
      expect(row).toMatch(new RegExp(`^${UUID.source.slice(1, -1)} +ada@example\\.com +Admin +active +Ada Lovelace$`));
      expect(rest).toEqual([]);

      const json = await cli(['list-users', '--json']);
      expect(JSON.parse(json.stdout)).toEqual([
        {
          id: expect.stringMatching(UUID),
          email: 'ada@example.com',
          fullName: 'Ada Lovelace',
          role: 'Admin',
          status: 'active',
        },
      ]);
    });

    it("list every flow with its status and owner, or one user's own", async () => {
      const first = (await cli(['import-flow', writeDocument(), '--user', 'ada@example.com'])).stdout.trim();
      const second = (
        await cli(['import-flow', writeDocument({ ...DOCUMENT, name: 'Second' }), '--user', 'ada@example.com'])
      ).stdout.trim();

      const table = await cli(['list-flows']);
      expect(table.code).toBe(0);
      const lines = table.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^ID +STATUS +OWNER +NAME$/);
      expect(lines.slice(1)).toHaveLength(2);
      expect(lines.slice(1)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`^${first} +draft +ada@example\\.com +Orders to mail$`)),
          expect.stringMatching(new RegExp(`^${second} +draft +ada@example\\.com +Second$`)),
        ]),
      );

      const json = JSON.parse((await cli(['list-flows', '--json', '--user', 'Ada@example.com'])).stdout);
      expect(json).toHaveLength(2);
      expect(json).toContainEqual({ id: first, name: 'Orders to mail', status: 'draft', owner: 'ada@example.com' });
      // The export carries fresh ids: the flow's own would hand out its webhook address.
      const exported = JSON.parse((await cli(['export-flow', first, '--user', 'ada@example.com'])).stdout);
      expect(exported.id).not.toBe(first);
    });

    it('say when there is nothing to list, and fail for an unknown user', async () => {
      const empty = await cli(['list-flows']);
      expect(empty).toMatchObject({ code: 0, stdout: '', stderr: expect.stringContaining('No flows.') });
      expect(JSON.parse((await cli(['list-flows', '--json'])).stdout)).toEqual([]);
      const unknown = await cli(['list-flows', '--user', 'nobody@example.com']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^conveyor: No active user nobody@example.com: /m);
    });
  });

  describe('usage errors exit 2 before touching the database', () => {
    it.each([
      ['migrate with an argument', ['migrate', 'now']],
      ['create-admin without --email', ['create-admin', '--full-name', 'A']],
      ['create-admin without --full-name', ['create-admin', '--email', 'a@example.com']],
      ['export-flow without a flow id', ['export-flow', '--user', 'a@example.com']],
      ['export-flow with two flow ids', ['export-flow', 'a', 'b', '--user', 'a@example.com']],
      ['export-flow without --user', ['export-flow', randomUUID()]],
      ['import-flow without a file', ['import-flow', '--user', 'a@example.com']],
      ['import-flow without --user', ['import-flow', 'flow.json']],
      ['import-flow with an unknown option', ['import-flow', 'flow.json', '--user', 'a@example.com', '--force']],
      ['list-flows with an argument', ['list-flows', 'all']],
      ['list-users with --user', ['list-users', '--user', 'a@example.com']],
    ])('%s', async (_, argv) => {
      // An unusable configuration proves that the usage is checked first.
      const { code, stdout, stderr } = await cli(argv, { extraEnv: { DATABASE_POOL_SIZE: 'many' } });
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^conveyor: .+\n\nUsage: conveyor /);
    });
  });
});

describe('help of the database commands', () => {
  it.each([['migrate'], ['create-admin'], ['export-flow'], ['import-flow'], ['list-flows'], ['list-users']])(
    '%s --help and help %s print the command usage',
    async (command) => {
      for (const argv of [
        [command, '--help'],
        [command, '-h'],
        ['help', command],
      ]) {
        let stdout = '';
        const code = await runCli(argv, {
          stdout: { write: (t: string) => (stdout += t) },
          stderr: { write: () => 0 },
        });
        expect(code).toBe(0);
        expect(stdout).toMatch(new RegExp(`^Usage: conveyor ${command}`));
        expect(stdout).toContain('DATABASE_URL');
      }
    },
  );

  it('the overview lists them', async () => {
    let stdout = '';
    await runCli(['--help'], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => 0 } });
    for (const command of ['migrate', 'create-admin', 'export-flow', 'import-flow', 'list-flows', 'list-users']) {
      expect(stdout).toContain(command);
    }
  });

  it('create-admin --help says where the password comes from, and that argv is not one of them', async () => {
    let stdout = '';
    await runCli(['create-admin', '--help'], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => 0 },
    });
    expect(stdout).toContain('CONVEYOR_ADMIN_PASSWORD');
    expect(stdout).toContain('standard input');
    expect(stdout).toContain('never from the command line');
  });
});

describe('the database commands in a process of their own', () => {
  it('migrate, then create-admin with the password piped on standard input, each exit by themselves', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conveyor-cli-process-'));
    try {
      const env = { ...process.env, DATABASE_URL: join(dir, 'conveyor.db'), ENCRYPTION_KEY: 'e'.repeat(64) };
      const run = (input: string, ...argv: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', resolve('composition/cli.ts'), ...argv], {
          encoding: 'utf8',
          timeout: 50_000,
          input,
          env: { ...env, CONVEYOR_ADMIN_PASSWORD: '' },
        });
      const migrated = run('', 'migrate');
      expect(migrated.stderr).not.toContain('conveyor:');
      expect(migrated.status).toBe(0);
      expect(migrated.stdout).toMatch(/^Applied \d+ migrations/);
      const created = run(`${PASSWORD}\n`, 'create-admin', '--email', 'ada@example.com', '--full-name', 'Ada');
      expect(created.status).toBe(0);
      expect(created.stdout).toMatch(/^Created the administrator ada@example.com/);
      expect(`${created.stdout}${created.stderr}`).not.toContain(PASSWORD);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Two processes that each load the command line through tsx: slow on a loaded 2-core machine.
  }, 120_000);
});
