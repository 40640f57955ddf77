import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RELEASE } from '../core/domain/release.js';
import './cli.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'conveyor-cli-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the cli.ts entry point', () => {
  // The bottom of cli.ts runs only when node was started with it, also through npm's bin symlink.
  const run = (script: string, ...argv: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', script, ...argv], { encoding: 'utf8', timeout: 20_000 });

  it('runs when started directly, and exits with the code runCli answered', () => {
    const help = run(resolve('composition/cli.ts'), '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: conveyor <command>/);
    expect(run(resolve('composition/cli.ts'), 'frobnicate').status).toBe(2);
  });

  it('runs when started through a symlink, as npm installs bins', () => {
    const link = join(dir, 'conveyor.ts');
    symlinkSync(resolve('composition/cli.ts'), link);
    const version = run(link, '--version');
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(`${RELEASE}\n`);
  });

  it('does nothing when imported', async () => {
    // This very file imported cli.ts; had its bottom run, vitest's argv would have printed a usage error.
    expect(process.exitCode ?? 0).toBe(0);
  });
});
