import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_CLI as CLI } from '../support/server-process.js';

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

/** The answer's status and how long it took, or null when there was none within `timeoutMs`. */
const timed = async (url: string, timeoutMs: number) => {
  const began = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - began };
  } catch {
    return null;
  }
};

describe('a server whose log output is full (stdout on /dev/full: ENOSPC)', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });

  it('still answers promptly, and stops cleanly', async () => {
    const port = await freePort();
    const full = openSync('/dev/full', 'w');
    cleanups.push(() => closeSync(full));
    const child = spawn(process.execPath, [CLI, 'start'], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        PORT: String(port),
        DATABASE_URL: ':memory:',
        LOG_LEVEL: 'debug',
      },
      stdio: ['ignore', full, 'pipe'],
    });
    cleanups.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));

    const deadline = Date.now() + 20_000;
    let up = await timed(`http://127.0.0.1:${port}/healthcheck`, 1000);
    while (up?.status !== 200 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 200));
      up = await timed(`http://127.0.0.1:${port}/healthcheck`, 1000);
    }
    expect(up?.status, stderr).toBe(200);

    // Every request logs a line (debug): each fails with ENOSPC, and none may hold the answer up.
    for (let i = 0; i < 20; i += 1) {
      const answer = await timed(`http://127.0.0.1:${port}/api/v1/service/info`, 2000);
      expect(answer?.status).toBe(200);
      expect(answer?.ms).toBeLessThan(1000);
    }

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/^ {4}at /m);
  });
});
