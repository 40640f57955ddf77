import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../composition/cli.js';
import { RELEASE } from '../../core/domain/release.js';
import { verifyLicense } from '../auth/license.js';

const DAY_MS = 24 * 60 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Runs the CLI in-process, collecting what it writes. */
const cli = async (...argv: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
};

let dir: string;
let privateKey: string;
let publicKey: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'conveyor-cli-'));
  privateKey = join(dir, 'keys', 'license-private.pem');
  publicKey = join(dir, 'keys', 'license-public.pem');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const generate = async () => {
  const result = await cli('generate-license-keys', '--out', join(dir, 'keys'));
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return result;
};

describe('conveyor help', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the commands on stdout', async (flag) => {
    const { code, stdout, stderr } = await cli(flag);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^Usage: conveyor <command>/);
    for (const command of ['start', 'generate-license-keys', 'issue-license']) expect(stdout).toContain(command);
  });

  it.each([['start'], ['generate-license-keys'], ['issue-license']])(
    '%s --help, -h and help <command> print that command usage',
    async (command) => {
      for (const argv of [
        [command, '--help'],
        [command, '-h'],
        ['help', command],
      ]) {
        const { code, stdout, stderr } = await cli(...argv);
        expect(code).toBe(0);
        expect(stderr).toBe('');
        expect(stdout).toMatch(new RegExp(`^Usage: conveyor ${command}`));
      }
    },
  );

  it('--help wins over missing required options', async () => {
    expect((await cli('issue-license', '--name', 'Acme', '--help')).code).toBe(0);
  });

  it('--version prints the release', async () => {
    expect(await cli('--version')).toEqual({ code: 0, stdout: `${RELEASE}\n`, stderr: '' });
  });
});

describe('usage errors exit 2 with the usage on stderr', () => {
  it.each([
    ['no command', []],
    ['an unknown command', ['frobnicate']],
    ['an inherited property name as command', ['constructor']],
    ['an unknown top-level option', ['--bogus']],
    ['help on an unknown command', ['help', 'frobnicate']],
    ['start with an argument', ['start', 'now']],
    ['start with an unknown option', ['start', '--port', '3000']],
    ['generate-license-keys without --out', ['generate-license-keys']],
    ['generate-license-keys with --out but no value', ['generate-license-keys', '--out']],
    ['generate-license-keys with an unknown option', ['generate-license-keys', '--out', '.', '--force']],
    ['issue-license without options', ['issue-license']],
  ])('%s', async (_, argv) => {
    const { code, stdout, stderr } = await cli(...argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^conveyor: .+\n\nUsage: conveyor /);
  });

  it('names the unknown command', async () => {
    expect((await cli('frobnicate')).stderr).toContain("Unknown command 'frobnicate'");
  });

  it('names the unknown option, without Node parser advice', async () => {
    const { stderr } = await cli('generate-license-keys', '--out', dir, '--force');
    expect(stderr.split('\n')[0]).toBe("conveyor: Unknown option '--force'");
  });
});

describe('conveyor generate-license-keys', () => {
  it('writes a private key only its owner can read and a public key, creating the directory', async () => {
    const { stdout } = await generate();
    expect(readFileSync(privateKey, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(readFileSync(publicKey, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(statSync(privateKey).mode & 0o777).toBe(0o600);
    // The public key is meant to be shared: readable, but writable only by its owner.
    expect(statSync(publicKey).mode & 0o422).toBe(0o400);
    expect(stdout).toContain(privateKey);
    expect(stdout).toContain(publicKey);
    expect(stdout).toContain('LICENSE_PUBLIC_KEY');
    expect(stdout).toContain('issue-license');
  });

  it('prints a one-line form of the public key that verifies licences', async () => {
    const { stdout } = await generate();
    const oneLine = /LICENSE_PUBLIC_KEY=(\S+)/.exec(stdout)?.[1] ?? '';
    const license = (await cli('issue-license', '--private-key', privateKey, '--name', 'Acme', '--days', '1')).stdout;
    expect(verifyLicense(license.trim(), oneLine)?.name).toBe('Acme');
  });

  it('writes a fresh pair each time', async () => {
    await generate();
    const other = join(dir, 'other');
    expect((await cli('generate-license-keys', '--out', other)).code).toBe(0);
    expect(readFileSync(join(other, 'license-public.pem'), 'utf8')).not.toBe(readFileSync(publicKey, 'utf8'));
  });

  it('refuses to overwrite existing keys and leaves them unchanged', async () => {
    await generate();
    const before = [readFileSync(privateKey, 'utf8'), readFileSync(publicKey, 'utf8')];
    const { code, stdout, stderr } = await cli('generate-license-keys', '--out', join(dir, 'keys'));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('exists already');
    expect([readFileSync(privateKey, 'utf8'), readFileSync(publicKey, 'utf8')]).toEqual(before);
  });

  it('refuses when only the public file exists, and writes no private key', async () => {
    const out = join(dir, 'half');
    await cli('generate-license-keys', '--out', out);
    rmSync(join(out, 'license-private.pem'));
    expect((await cli('generate-license-keys', '--out', out)).code).toBe(1);
    expect(existsSync(join(out, 'license-private.pem'))).toBe(false);
  });
});

describe('conveyor issue-license', () => {
  it('prints only the licence on stdout; it verifies with the public key file and carries the payload', async () => {
    await generate();
    const id = '0f8e2d4c-6b1a-4e3f-8d7c-5a9b0c1d2e3f';
    const { code, stdout, stderr } = await cli(
      'issue-license',
      '--private-key',
      privateKey,
      '--name',
      'Acme Corp',
      '--id',
      id,
      '--expires',
      '2099-12-31',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/);
    expect(verifyLicense(stdout, readFileSync(publicKey, 'utf8'))).toEqual({
      id,
      name: 'Acme Corp',
      expireAt: new Date('2099-12-31T00:00:00.000Z'),
    });
    expect(stderr).toContain(id);
    expect(stderr).toContain('2099-12-31T00:00:00.000Z');
    expect(stderr).not.toContain(stdout.trim());
  });

  it('gives a random UUID when --id is not given', async () => {
    await generate();
    const issue = () => cli('issue-license', '--private-key', privateKey, '--name', 'Acme', '--days', '7');
    const ids = await Promise.all([issue(), issue()]).then((results) =>
      results.map((result) => verifyLicense(result.stdout, readFileSync(publicKey, 'utf8'))?.id),
    );
    expect(ids[0]).toMatch(UUID);
    expect(ids[1]).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('--days counts whole days from now', async () => {
    await generate();
    const before = Date.now();
    const { stdout } = await cli('issue-license', '--private-key', privateKey, '--name', 'Acme', '--days', '30');
    const after = Date.now();
    const expireAt = verifyLicense(stdout, readFileSync(publicKey, 'utf8'))?.expireAt.getTime() ?? 0;
    // The payload keeps milliseconds, so the expiry lies between the two readings of the clock.
    expect(expireAt).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(expireAt).toBeLessThanOrEqual(after + 30 * DAY_MS);
  });

  it.each([
    ['2099-06-01T12:30:00Z', '2099-06-01T12:30:00.000Z'],
    ['2099-06-01T12:30:00+02:00', '2099-06-01T10:30:00.000Z'],
    [' 2099-06-01 ', '2099-06-01T00:00:00.000Z'],
  ])('--expires %s is the instant %s', async (expires, iso) => {
    await generate();
    const { stdout } = await cli('issue-license', '--private-key', privateKey, '--name', 'Acme', '--expires', expires);
    expect(verifyLicense(stdout, readFileSync(publicKey, 'utf8'))?.expireAt.toISOString()).toBe(iso);
  });

  it('trims the licensee name', async () => {
    await generate();
    const { stdout } = await cli('issue-license', '--private-key', privateKey, '--name', '  Acme  ', '--days', '1');
    expect(verifyLicense(stdout, readFileSync(publicKey, 'utf8'))?.name).toBe('Acme');
  });

  describe('refuses with exit 2 and nothing on stdout', () => {
    it.each([
      ['both --expires and --days', ['--expires', '2099-01-01', '--days', '3'], 'exactly one of'],
      ['neither --expires nor --days', [], 'exactly one of'],
      ['--days 0', ['--days', '0'], '--days must be'],
      ['--days -3', ['--days=-3'], '--days must be'],
      ['--days 1.5', ['--days', '1.5'], '--days must be'],
      ['--days abc', ['--days', 'abc'], '--days must be'],
      ['--days beyond a century', ['--days', '36501'], '--days must be'],
      ['--expires in the past', ['--expires', '2020-01-01'], 'not in the future'],
      ['--expires on a day that does not exist', ['--expires', '2099-02-30'], '--expires must be'],
      ['--expires without a time zone', ['--expires', '2099-06-01T12:00'], '--expires must be'],
      ['--expires in another format', ['--expires', '31/12/2099'], '--expires must be'],
      ['--id that is not a UUID', ['--days', '3', '--id', 'acme-1'], '--id must be a UUID'],
      ['a blank --name', ['--days', '3', '--name', '  '], '--name is required'],
      ['a positional argument', ['--days', '3', 'extra'], 'Unexpected argument'],
    ])('%s', async (_, extra, message) => {
      await generate();
      const { code, stdout, stderr } = await cli(
        'issue-license',
        '--private-key',
        privateKey,
        '--name',
        'Acme',
        ...extra,
      );
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(message);
      expect(stderr).toContain('Usage: conveyor issue-license');
    });

    it.each([
      ['--private-key', ['--name', 'Acme', '--days', '3']],
      ['--name', ['--private-key', 'key.pem', '--days', '3']],
    ])('without %s', async (flag, argv) => {
      const { code, stdout, stderr } = await cli('issue-license', ...argv);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(`${flag} is required`);
    });
  });

  describe('fails with exit 1 and nothing on stdout', () => {
    it('when the private key file is missing', async () => {
      const missing = join(dir, 'nope.pem');
      const { code, stdout, stderr } = await cli(
        'issue-license',
        '--private-key',
        missing,
        '--name',
        'A',
        '--days',
        '1',
      );
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain(`Cannot read the private key ${missing}`);
    });

    it('when the file holds the public key instead', async () => {
      await generate();
      const { code, stdout, stderr } = await cli(
        'issue-license',
        '--private-key',
        publicKey,
        '--name',
        'A',
        '--days',
        '1',
      );
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain('private key cannot be read');
    });

    it('when the file is not a key', async () => {
      const file = join(dir, 'notes.txt');
      writeFileSync(file, 'hello');
      expect((await cli('issue-license', '--private-key', file, '--name', 'A', '--days', '1')).code).toBe(1);
    });
  });
});

describe('conveyor --data-dir', () => {
  it.each([
    ['before the command', (folder: string) => ['--data-dir', folder, 'migrate']],
    ['after it', (folder: string) => ['migrate', '--data-dir', folder]],
    ['as --data-dir=', (folder: string) => ['migrate', `--data-dir=${folder}`]],
  ])('keeps the database in that folder, given %s', async (_, argv) => {
    const folder = join(dir, 'elsewhere', 'conveyor');
    const { code, stderr } = await cli(...argv(folder));
    expect({ code, stderr }).toEqual({ code: 0, stderr: expect.not.stringMatching(/conveyor:/) });
    expect(existsSync(join(folder, 'conveyor.db'))).toBe(true);
  });

  it('is a usage error without a folder', async () => {
    for (const argv of [
      ['migrate', '--data-dir'],
      ['--data-dir', '--help'],
      ['--data-dir=', 'migrate'],
    ]) {
      const { code, stderr } = await cli(...argv);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^conveyor: --data-dir needs a folder\./);
    }
  });
});
