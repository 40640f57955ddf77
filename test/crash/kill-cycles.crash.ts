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
import { DIALECTS } from '../support/databases.js';
import { processDatabase } from '../support/server-process.js';
import { type Cluster, crashEnvironment, createCluster } from './cluster.js';
import { report } from './report.js';
import { startSink } from './sink.js';
import { type CrashTally, expectExactlyOnce, settled, tally, tallyFigures } from './tally.js';
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
    const env = crashEnvironment(dialect, database);
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

    report(
      'crash suite',
      dialect,
      {
        'kill cycles': CYCLES,
        kills: [...kills].map(([name, n]) => `${name} ${n}`).join(' / ') || '0',
        'postgres restarts': postgresRestartAt >= 0 ? 1 : 0,
        'webhooks sent': ledger.sent,
        acknowledged: ledger.acknowledged.size,
        'cut off or refused connections': ledger.unanswered,
        'answered with': [...ledger.statuses].map(([status, n]) => `${status} x${n}`).join(' ') || 'nothing',
        ...tallyFigures(result),
        'unacknowledged that ran': result.unacknowledgedRun,
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
      },
      cluster,
    );

    expectExactlyOnce(result);
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
