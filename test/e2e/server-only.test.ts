import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi as api, newWebhookFlow } from '../support/api-client.js';
import { eventually } from '../support/engine-flows.js';
import { listeningPort, startServerProcess } from '../support/server-process.js';

describe('a server that only takes webhooks (SERVER_RUNS_FLOWS=false)', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  });

  it('accepts runs that only a worker process then runs', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conveyor-server-only-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: join(dir, 'conveyor.db'),
      ENCRYPTION_KEY: 'c'.repeat(64),
      QUEUE_POLL_INTERVAL_MS: '50',
    };
    const server = startServerProcess({ ...env, SERVER_RUNS_FLOWS: 'false' });
    cleanups.push(() => server.child.kill('SIGKILL'));
    const base = `http://127.0.0.1:${await listeningPort(server)}`;
    const admin = { email: 'server-only@example.com', password: 'a long password', fullName: 'Only' };
    const { token, flowId, triggerId, actionId } = await newWebhookFlow(base, admin);
    await api(base, 'PATCH', `/steps/${actionId}`, token, {
      appKey: 'formatter',
      key: 'text',
      parameters: { transform: 'uppercase', input: `{{step.${triggerId}.body.name}}` },
    });
    await api(base, 'PATCH', `/flows/${flowId}/status`, token, { active: true });

    const ack = await fetch(`${base}/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ada' }),
    });
    expect(ack.status).toBe(204);
    const executions = () => api(base, 'GET', `/executions?flowId=${flowId}`, token);
    // Stored, and nobody runs it: the server does not.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await executions()).data.map((e: { status: string }) => e.status)).toEqual(['running']);

    const worker = spawn(process.execPath, ['--import', 'tsx', 'composition/cli.ts', 'worker'], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
      stdio: 'ignore',
    });
    cleanups.push(() => worker.kill('SIGKILL'));
    const done = await eventually(executions, (res) => res.data[0]?.status === 'success', 30_000);
    const steps = (await api(base, 'GET', `/executions/${done.data[0].id}/execution-steps`, token)).data;
    expect(steps.map((s: { dataOut: unknown }) => s.dataOut)).toMatchObject([
      { body: { name: 'ada' } },
      { output: 'ADA' },
    ]);
  });
});
