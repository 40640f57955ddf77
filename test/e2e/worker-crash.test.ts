import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi as api, newWebhookFlow } from '../support/api-client.js';
import { DIALECTS } from '../support/databases.js';
import { listeningPort, processDatabase, startServerProcess } from '../support/server-process.js';

const RUNS = 60;

/** A loopback service that answers slowly and counts deliveries, and idempotency keys, per webhook number. */
const startSink = async () => {
  const deliveries = new Map<string, number>();
  const keys = new Map<string, Set<string>>();
  const server: Server = createServer((req, res) => {
    const n = new URL(req.url ?? '/', 'http://sink').searchParams.get('n') ?? '?';
    deliveries.set(n, (deliveries.get(n) ?? 0) + 1);
    keys.set(n, (keys.get(n) ?? new Set()).add(String(req.headers['idempotency-key'])));
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), 250);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    keys,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const launch = (env: Record<string, string>) => {
  const started = startServerProcess(env);
  return { ...started, port: listeningPort(started) };
};

describe.each(DIALECTS)('a worker killed in the middle of runs (%s)', (dialect) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('loses no accepted webhook and records every step of every run exactly once', { timeout: 90_000 }, async () => {
    const sink = await startSink();
    cleanups.push(() => sink.close());
    const env = {
      ...(await processDatabase(dialect, cleanups)),
      ENCRYPTION_KEY: 'b'.repeat(64),
      ALLOW_PRIVATE_NETWORKS: 'true',
      // Long enough that a loaded CI machine's stalls do not take live runs over (which would repeat
      // calls no kill caused), short enough that the second process resumes the dead one's soon.
      EXECUTION_LEASE_SECONDS: '3',
      WORKER_CONCURRENCY: '8',
    };

    const first = launch(env);
    cleanups.push(() => {
      first.child.kill('SIGKILL');
    });
    const base = `http://127.0.0.1:${await first.port}`;
    const admin = { email: 'crash@example.com', password: 'a long password', fullName: 'Crash' };
    const { token, flowId, triggerId, actionId } = await newWebhookFlow(base, admin);
    await api(base, 'PATCH', `/steps/${actionId}`, token, {
      appKey: 'http-request',
      key: 'customRequest',
      parameters: { method: 'POST', url: `${sink.url}/?n={{step.${triggerId}.body.n}}`, data: '{}' },
    });
    const last = (await api(base, 'POST', `/flows/${flowId}/steps`, token, { previousStepId: actionId })).data;
    await api(base, 'PATCH', `/steps/${last.id}`, token, {
      appKey: 'datastore',
      key: 'setValue',
      parameters: { key: 'n', value: `{{step.${triggerId}.body.n}}` },
    });
    await api(base, 'PATCH', `/flows/${flowId}/status`, token, { active: true });

    const acks = await Promise.all(
      Array.from({ length: RUNS }, (_, n) =>
        fetch(`${base}/webhooks/flows/${flowId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ n }),
        }).then((res) => res.status),
      ),
    );
    expect(acks.filter((status) => status !== 204)).toEqual([]);
    // Kill it while runs are in flight: some finished, some in a step, some not started.
    for (let i = 0; i < 500 && sink.deliveries.size < 12; i++) await new Promise((r) => setTimeout(r, 10));
    first.child.kill('SIGKILL');
    await first.exited;
    const deliveredBeforeKill = sink.deliveries.size;
    expect(deliveredBeforeKill).toBeLessThan(RUNS);

    const second = launch(env);
    cleanups.push(() => {
      second.child.kill('SIGKILL');
    });
    const base2 = `http://127.0.0.1:${await second.port}`;
    const token2 = (await api(base2, 'POST', '/access-tokens', undefined, admin)).data.token;
    let executions: Array<{ id: string; status: string }> = [];
    for (let i = 0; i < 600; i++) {
      executions = (await api(base2, 'GET', `/executions?flowId=${flowId}&perPage=100`, token2)).data;
      if (executions.length === RUNS && executions.every((e) => e.status === 'success')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(executions).toHaveLength(RUNS);
    expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
    for (const execution of executions) {
      const steps = (await api(base2, 'GET', `/executions/${execution.id}`, token2)).data.steps;
      expect(steps.map((s: { stepId: string }) => s.stepId)).toEqual([triggerId, actionId, last.id]);
    }
    // Every webhook reached the outside service; only a call in flight at the kill may repeat.
    expect(sink.deliveries.size).toBe(RUNS);
    const repeated = [...sink.deliveries.values()].filter((count) => count > 1).length;
    expect(repeated).toBeLessThanOrEqual(Number(env.WORKER_CONCURRENCY));
    // A repeated call carries its first attempt's idempotency key: the receiver can tell it is one.
    const byRun = new Map(
      await Promise.all(
        executions.map(async (e) => {
          const steps = (await api(base2, 'GET', `/executions/${e.id}`, token2)).data.steps;
          return [String(steps[0].dataOut.body.n), `${e.id}:${actionId}`] as const;
        }),
      ),
    );
    for (const [n, seen] of sink.keys) expect([...seen], `webhook ${n}`).toEqual([byRun.get(n)]);
    process.stdout.write(
      `worker crash (${dialect}): ${RUNS} webhooks, killed after ${deliveredBeforeKill} deliveries, 0 lost, ${repeated} in-flight calls repeated\n`,
    );
  });
});
