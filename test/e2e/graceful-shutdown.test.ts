import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi as api, newWebhookFlow } from '../support/api-client.js';
import { DIALECTS } from '../support/databases.js';
import { listeningPort, processDatabase, startServerProcess } from '../support/server-process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback service whose first call answers after `firstDelayMs`, later ones at once. */
const startSink = async (firstDelayMs: number) => {
  let calls = 0;
  const server: Server = createServer((_req, res) => {
    calls += 1;
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (calls === 1) setTimeout(answer, firstDelayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = () => '') => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms\n${what()}`);
    await sleep(20);
  }
};

describe.each(DIALECTS)('graceful shutdown on SIGTERM (%s)', (dialect) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The environment of processes sharing one database. */
  const prepare = async (env: Record<string, string>) => ({
    ...(await processDatabase(dialect, cleanups)),
    ENCRYPTION_KEY: 'c'.repeat(64),
    ALLOW_PRIVATE_NETWORKS: 'true',
    ...env,
  });

  const launch = async (env: Record<string, string>) => {
    const started = startServerProcess(env);
    cleanups.push(() => {
      started.child.kill('SIGKILL');
    });
    return { ...started, base: `http://127.0.0.1:${await listeningPort(started)}` };
  };

  /** A published flow: webhook, then a POST to `url`. */
  const publishFlow = async (base: string, url: string) => {
    const admin = { email: 'ops@example.com', password: 'a long password', fullName: 'Ops' };
    const { token, flowId, actionId } = await newWebhookFlow(base, admin);
    await api(base, 'PATCH', `/steps/${actionId}`, token, {
      appKey: 'http-request',
      key: 'customRequest',
      parameters: { method: 'POST', url, data: '{}' },
    });
    await api(base, 'PATCH', `/flows/${flowId}/status`, token, { active: true });
    return { flowId, admin };
  };

  it('stops accepting, lets the request in flight finish, and exits 0', { timeout: 60_000 }, async () => {
    const sink = await startSink(1500);
    cleanups.push(() => sink.close());
    const server = await launch(await prepare({}));
    const { flowId } = await publishFlow(server.base, sink.url);

    // The /sync address runs the flow inside the request: it lasts as long as the slow call.
    const inFlight = fetch(`${server.base}/webhooks/flows/${flowId}/sync`, { method: 'POST', body: '{}' });
    await until(() => sink.calls() === 1, 10_000, server.output);
    const signalled = Date.now();
    server.child.kill('SIGTERM');

    // New connections are refused at once...
    await until(
      () =>
        fetch(`${server.base}/healthcheck`).then(
          () => false,
          () => true,
        ),
      5_000,
      server.output,
    );
    // ...while the request in flight completes with its run's answer.
    const answer = await inFlight;
    // A flow without a respond step answers its run's outcome (item 17 of issue 17).
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: { status: 'success' } });
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled, server.output().slice(-3000)).toBeLessThan(8_000);
    expect(server.output()).toContain('shutting down');
    expect(server.output()).toContain('shut down cleanly');
  });

  it('releases a run still going at the time-out, exits 0, and the run completes in the next process', {
    timeout: 90_000,
  }, async () => {
    const sink = await startSink(30_000);
    cleanups.push(() => sink.close());
    const env = await prepare({ SHUTDOWN_TIMEOUT_SECONDS: '1', EXECUTION_LEASE_SECONDS: '1' });
    const first = await launch(env);
    const { flowId, admin } = await publishFlow(first.base, sink.url);

    const accepted = await fetch(`${first.base}/webhooks/flows/${flowId}`, { method: 'POST', body: '{}' });
    expect(accepted.status).toBe(204);
    await until(() => sink.calls() === 1);
    const signalled = Date.now();
    first.child.kill('SIGTERM');
    const code = await first.exited;
    expect(code, first.output()).toBe(0);
    // Bounded by the time-out, not by the 30 s call.
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(first.output()).toContain('their jobs are released');

    const second = await launch(env);
    const { token } = (await api(second.base, 'POST', '/access-tokens', undefined, admin)).data;
    const runs = async () =>
      (await api(second.base, 'GET', `/executions?flowId=${flowId}`, token)).data as Array<{
        id: string;
        status: string;
      }>;
    await until(async () => (await runs()).some((run) => run.status === 'success'), 30_000);
    const [run] = await runs();
    expect((await runs()).map((r) => r.status)).toEqual(['success']);
    const steps = (await api(second.base, 'GET', `/executions/${run?.id}`, token)).data.steps;
    expect(steps.map((step: { status: string }) => step.status)).toEqual(['success', 'success']);
    // At least once: the call cut short by the shutdown is made again.
    expect(sink.calls()).toBeGreaterThanOrEqual(2);
  });
});
