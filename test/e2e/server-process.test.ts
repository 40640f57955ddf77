import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { listeningPort, processDatabase, startServerProcess } from '../support/server-process.js';

describe.each(DIALECTS)('the server process (%s)', (dialect) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('serves the API, then stops cleanly on SIGTERM', async () => {
    const started = startServerProcess({
      ...(await processDatabase(dialect, cleanups)),
      ENCRYPTION_KEY: 'a'.repeat(64),
    });
    cleanups.push(() => {
      started.child.kill('SIGKILL');
    });
    const port = await listeningPort(started);

    const info = await fetch(`http://127.0.0.1:${port}/api/v1/service/info`);
    expect(info.status).toBe(200);
    const body = (await info.json()) as { data: { installationCompleted: boolean } };
    expect(body.data.installationCompleted).toBe(false);
    const install = await fetch(`http://127.0.0.1:${port}/api/v1/installation/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'a long password', fullName: 'Ada' }),
    });
    expect(install.status).toBe(204);

    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(started.output()).toContain('shutting down');
    // Every line names the process that wrote it, so that collected logs of many processes can be told apart.
    expect(started.output()).toMatch(/"service":"conveyor","role":"server","hostname":"[^"]+","pid":\d+/);
  });
});

describe('configuration errors', () => {
  it('stop the start with exit code 1 and name every bad variable', async () => {
    const started = startServerProcess({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: ':memory:' });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('PORT must be a whole number');
    expect(started.output()).toContain('LOG_LEVEL must be one of');
  });

  it('require ENCRYPTION_KEY in production', async () => {
    const started = startServerProcess({ NODE_ENV: 'production', DATABASE_URL: ':memory:' });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('ENCRYPTION_KEY is required when NODE_ENV=production');
  });
});
