/**
 * The crash suite (`npm run test:crash`): cycles of webhook bursts during which a Conveyor process
 * is killed with SIGKILL at a random moment, then started again; on Postgres also a restart of
 * PostgreSQL itself mid-run. Afterwards every acknowledged webhook must have exactly one execution,
 * finished as a success, whose one effect reached the sink under exactly one idempotency key.
 * Beside it runs a flow with structure (paths, a 20-item loop, a sub-flow call: tree-flow.ts),
 * killed inside branches, iterations and calls alike: each of its webhooks must make each of its
 * 23 effects exactly once, under the key of the step and iteration that makes it.
 *
 * CRASH_CYCLES sets the cycles per database (default 100); CRASH_SETTLE_SECONDS how long the runs
 * may take to finish once the killing stops (default 180).
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi, newWebhookFlow } from '../support/api-client.js';
import { DIALECTS, type DialectName } from '../support/databases.js';
import { processDatabase } from '../support/server-process.js';
import { type Cluster, createCluster } from './cluster.js';
import { startSink } from './sink.js';
import { type CrashTally, settled, tally } from './tally.js';
import { publishTreeFlow, type TreeTally, treeSettled, treeTally } from './tree-flow.js';
import { newLedger, sendBurst } from './webhooks.js';

const CYCLES = Number(process.env.CRASH_CYCLES ?? 100);
// How long the runs may take to finish once the killing stops (CRASH_SETTLE_SECONDS).
const SETTLE_MS = Number(process.env.CRASH_SETTLE_SECONDS ?? 180) * 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));

/** Restarts the PostgreSQL server (asynchronously: webhooks keep coming meanwhile). */
const restartPostgres = async () => {
  const [version] = readdirSync('/etc/postgresql');
  if (!version) throw new Error('no PostgreSQL cluster in /etc/postgresql');
  await promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart']);
};

/** Publishes webhook -> HTTP request (POST the webhook's id to the sink); its ids, for the tally. */
const publishFlow = async (base: string, sinkUrl: string) => {
  const admin = { email: 'crash@example.com', password: 'a long password', fullName: 'Crash' };
  const { token, flowId, triggerId, actionId } = await newWebhookFlow(base, admin);
  await callApi(base, 'PATCH', `/steps/${actionId}`, token, {
    appKey: 'http-request',
    key: 'customRequest',
    parameters: { method: 'POST', url: sinkUrl, data: `{"id": "{{step.${triggerId}.body.id}}"}` },
  });
  await callApi(base, 'PATCH', `/flows/${flowId}/status`, token, { active: true });
  return { flowId, triggerId, actionId, token };
};

/** Error log lines grouped by process kind, message and error message, with their counts. */
const errorKinds = (lines: readonly string[]) => {
  const kinds = new Map<string, number>();
  for (const line of lines) {
    const [name = '', json = '{}'] = line.split(/: (.*)/s);
    const entry = JSON.parse(json) as { msg?: string; err?: string | { message?: string } };
    const err = typeof entry.err === 'string' ? entry.err : (entry.err?.message ?? '');
    const kind = `${name.replace(/ \d+$/, '')}: ${entry.msg}: ${err}`.slice(0, 300);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].sort((a, b) => b[1] - a[1]);
};

const report = (dialect: DialectName, figures: Record<string, number | string>) =>
  process.stdout.write(
    `\ncrash suite (${dialect}): ${Object.entries(figures)
      .map(([name, value]) => `${name} ${value}`)
      .join(', ')}\n`,
  );

describe.each(DIALECTS)('processes killed at random moments (%s)', (dialect) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('lose no acknowledged webhook and repeat no effect', { timeout: 60 * 60_000 }, async () => {
    const sink = await startSink();
    cleanups.push(() => sink.close());
    const treeSink = await startSink();
    cleanups.push(() => treeSink.close());
    const database = await processDatabase(dialect, cleanups);
    const env = {
      ...database,
      ENCRYPTION_KEY: 'c'.repeat(64),
      ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: 'info',
      // Short leases, so that a killed process's runs are taken over within the cycles.
      EXECUTION_LEASE_SECONDS: '1',
      QUEUE_LEASE_SECONDS: '5',
      QUEUE_POLL_INTERVAL_MS: '100',
      WORKER_CONCURRENCY: '8',
      DATABASE_POOL_TIMEOUT_MS: '2000',
      ...(dialect === 'postgres' && { QUEUE: 'pg-boss' }),
    };
    // SQLite: one process that takes webhooks and runs flows. Postgres: that, and two workers.
    const cluster: Cluster = createCluster(env, dialect === 'postgres' ? 2 : 0);
    cleanups.push(() => cluster.stopAll());
    await cluster.startMissing();
    const { flowId, triggerId, actionId, token } = await publishFlow(cluster.base(), sink.url);
    const tree = await publishTreeFlow(cluster.base(), token, treeSink.url);
    const ledger = newLedger();
    const treeLedger = newLedger();
    const treeUrl = () => `${cluster.base()}/webhooks/flows/${tree.flowId}`;
    const webhookUrl = () => `${cluster.base()}/webhooks/flows/${flowId}`;
    const postgresRestartAt = dialect === 'postgres' ? Math.floor(CYCLES / 2) : -1;
    const kills = new Map<string, number>();

    const started = Date.now();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await cluster.startMissing();
      const restartsPostgres = cycle === postgresRestartAt;
      // The burst around PostgreSQL's restart lasts beyond it, so that webhooks meet its absence.
      const durationMs = restartsPostgres ? 5000 : between(100, 500);
      const burst = Promise.all([
        sendBurst({ url: webhookUrl, prefix: `c${cycle}`, durationMs, concurrency: 6, ledger }),
        // One structured run a cycle (23 steps each): killed in a branch, an iteration or a call.
        sendBurst({ url: treeUrl, prefix: `t${cycle}`, durationMs: 1, concurrency: 1, ledger: treeLedger }),
      ]);
      if (restartsPostgres) {
        // The database goes away under load; the processes must ride it out. A kill follows, while
        // the processes reconnect.
        await sleep(between(0, 1000));
        await restartPostgres();
        await sleep(between(0, 1000));
      } else {
        // Sometimes after the burst, when only runs are in flight.
        await sleep(between(0, durationMs + 300));
      }
      const victims = dialect === 'postgres' && Math.random() < 0.2 ? 2 : 1;
      for (const victim of [...cluster.members].sort(() => Math.random() - 0.5).slice(0, victims)) {
        kills.set(victim.name, (kills.get(victim.name) ?? 0) + 1);
        await cluster.kill(victim);
      }
      await burst;
    }
    await cluster.startMissing();
    const cyclesMs = Date.now() - started;

    let result: CrashTally = await tally({
      databaseUrl: database.DATABASE_URL,
      flowId,
      triggerId,
      actionId,
      ledger,
      sink,
    });
    let trees: TreeTally = await treeTally(database.DATABASE_URL, tree, treeLedger, treeSink);
    const deadline = Date.now() + SETTLE_MS;
    while (!(settled(result) && treeSettled(trees)) && Date.now() < deadline) {
      await sleep(1000);
      await cluster.startMissing();
      result = await tally({ databaseUrl: database.DATABASE_URL, flowId, triggerId, actionId, ledger, sink });
      trees = await treeTally(database.DATABASE_URL, tree, treeLedger, treeSink);
    }

    report(dialect, {
      'kill cycles': CYCLES,
      kills: [...kills].map(([name, n]) => `${name} ${n}`).join(' / ') || '0',
      'postgres restarts': postgresRestartAt >= 0 ? 1 : 0,
      'webhooks sent': ledger.sent,
      acknowledged: ledger.acknowledged.size,
      'cut off or refused connections': ledger.unanswered,
      'answered with': [...ledger.statuses].map(([status, n]) => `${status} x${n}`).join(' ') || 'nothing',
      executions: result.executions,
      'unacknowledged that ran': result.unacknowledgedRun,
      lost: result.lost.length,
      'duplicate executions': result.duplicateExecutions.length,
      'duplicate effects': result.duplicateEffects.length,
      'redeliveries with the same key': result.redeliveries,
      'deliveries with a wrong or no key': result.foreignKeys,
      'unfinished or failed executions': result.unsuccessful.length,
      'structured webhooks acknowledged': treeLedger.acknowledged.size,
      'structured executions': trees.executions,
      'structured lost': trees.lost.length,
      'structured duplicate executions': trees.duplicateExecutions.length,
      'structured duplicate effects': trees.duplicateEffects.length,
      'structured deliveries with a wrong or no key': trees.foreignKeys,
      'structured redeliveries with the same key': trees.redeliveries,
      'structured unfinished or failed': trees.unsuccessful.length,
      'unexpected process exits': cluster.unexpectedExits.length,
      'cycles took': `${Math.round(cyclesMs / 1000)} s`,
    });
    const errors = errorKinds(cluster.errorLines());
    process.stdout.write(`\nerror log lines, by process and message:\n`);
    for (const [kind, n] of errors) process.stdout.write(`  ${n} x ${kind}\n`);
    for (const exit of cluster.unexpectedExits)
      process.stdout.write(`\n${exit.name} exited by itself (code ${exit.code}):\n${exit.output}\n`);

    expect(result.lost.slice(0, 20)).toEqual([]);
    expect(result.duplicateExecutions.slice(0, 20)).toEqual([]);
    expect(result.duplicateEffects.slice(0, 20)).toEqual([]);
    expect(result.unsuccessful.slice(0, 20)).toEqual([]);
    expect(result.foreignKeys).toBe(0);
    expect(trees.lost.slice(0, 20)).toEqual([]);
    expect(trees.duplicateExecutions.slice(0, 20)).toEqual([]);
    expect(trees.duplicateEffects.slice(0, 20)).toEqual([]);
    expect(trees.unsuccessful.slice(0, 20)).toEqual([]);
    expect(trees.foreignKeys).toBe(0);
    expect(treeLedger.acknowledged.size).toBeGreaterThan(CYCLES / 2);
    // While PostgreSQL is away the server answers 503 (which senders retry), never 500.
    expect([...ledger.statuses.keys(), ...treeLedger.statuses.keys()].filter((status) => status !== 503)).toEqual([]);
    expect(cluster.unexpectedExits.map((exit) => exit.name)).toEqual([]);
    expect(ledger.acknowledged.size).toBeGreaterThan(CYCLES);
  });
});
