/**
 * `npm run bench:compare`: n8n and Conveyor side by side on this machine, in one run, each on
 * SQLite in one process, with the same flow: a webhook → set a field (the name upper-cased) →
 * filter (n ≥ 0). Phases alternate (n8n, Conveyor, n8n, Conveyor, ...) so that a machine that
 * gets busier or quieter meanwhile weighs on both alike.
 *
 * n8n is installed from the npm registry on first use into a cache folder outside the repository
 * (BENCH_N8N_CACHE, default ~/.cache/conveyor-bench/n8n-<version>), never as a dependency:
 * BENCH_N8N_VERSION (default 1.123.81, the last line that runs on Node.js 20). Its workflow is
 * imported and activated with n8n's own CLI, then n8n starts as `n8n start` with its recommended
 * SQLite setting (a connection pool, so WAL) and saves every execution, as Conveyor records every run.
 *
 * Each phase: BENCH_CONCURRENCY (default 64) senders as fast as each answer comes for
 * BENCH_SECONDS (default 10), then the wait until every acknowledged call's execution finished.
 * Printed per system: completed executions/s (acknowledged calls over sending + draining), ack
 * p50/p99, peak RSS, and the ratio. BENCH_COMPARE_ROUNDS (default 2) rounds.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acknowledged, describeFailures, failuresSince, hook } from './bench-load.js';
import {
  benchPort,
  completionsOf,
  fmt,
  type Instance,
  percentile,
  publishFlow,
  rssSampler,
  SUCCESSFUL_RUNS,
  sleep,
  start,
  waitUntilAnswering,
} from './bench-processes.js';

const N8N_VERSION = process.env.BENCH_N8N_VERSION ?? '1.123.81';
const CACHE = process.env.BENCH_N8N_CACHE ?? join(homedir(), '.cache', 'conveyor-bench', `n8n-${N8N_VERSION}`);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const ROUNDS = Number(process.env.BENCH_COMPARE_ROUNDS ?? 2);
const N8N_BIN = join(CACHE, 'node_modules', 'n8n', 'bin', 'n8n');
const WORKFLOW_ID = 'BenchCompare0001';

/**
 * Installs n8n into the cache once. Two of its dependencies cannot come from the registry as it
 * names them: xlsx points at its maker's own download site (only the registry is reachable from
 * build machines), and isolated-vm 6 builds only on Node.js 22. The registry's last xlsx and
 * isolated-vm 5 take their place; neither is on the path this benchmark measures.
 */
const installN8n = () => {
  if (existsSync(N8N_BIN)) return;
  console.log(`Installing n8n ${N8N_VERSION} into ${CACHE} (once; a few minutes)...`);
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(
    join(CACHE, 'package.json'),
    JSON.stringify({
      name: 'conveyor-bench-n8n',
      private: true,
      overrides: { xlsx: '0.18.5', 'isolated-vm': '5.0.4' },
    }),
  );
  execFileSync('npm', ['install', `n8n@${N8N_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: CACHE,
    stdio: 'inherit',
  });
};

/** The same flow as n8n nodes: Webhook (answers at once) → Edit Fields → Filter. */
const n8nWorkflow = () => ({
  id: WORKFLOW_ID,
  name: 'Conveyor comparison',
  active: false,
  settings: { executionOrder: 'v1' },
  connections: {
    Webhook: { main: [[{ node: 'Edit Fields', type: 'main', index: 0 }]] },
    'Edit Fields': { main: [[{ node: 'Filter', type: 'main', index: 0 }]] },
  },
  nodes: [
    {
      id: '7d0b2a57-0d55-4d2e-9a43-6b2f0c1e0001',
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: '7d0b2a57-0d55-4d2e-9a43-6b2f0c1e00aa',
      parameters: { httpMethod: 'POST', path: 'bench', responseMode: 'onReceived', options: {} },
    },
    {
      id: '7d0b2a57-0d55-4d2e-9a43-6b2f0c1e0002',
      name: 'Edit Fields',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [220, 0],
      parameters: {
        mode: 'manual',
        includeOtherFields: true,
        assignments: {
          assignments: [
            {
              id: '7d0b2a57-0d55-4d2e-9a43-6b2f0c1e0003',
              name: 'output',
              value: '={{ $json.body.name.toUpperCase() }}',
              type: 'string',
            },
          ],
        },
        options: {},
      },
    },
    {
      id: '7d0b2a57-0d55-4d2e-9a43-6b2f0c1e0004',
      name: 'Filter',
      type: 'n8n-nodes-base.filter',
      typeVersion: 2.2,
      position: [440, 0],
      parameters: {
        conditions: {
          options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
          combinator: 'and',
          conditions: [
            {
              id: '7d0b2a57-0d55-4d2e-9a43-6b2f0c1e0005',
              leftValue: '={{ $json.body.n }}',
              rightValue: 0,
              operator: { type: 'number', operation: 'gte' },
            },
          ],
        },
        options: {},
      },
    },
  ],
});

interface System {
  readonly name: string;
  readonly instance: Instance;
  readonly url: string;
  readonly completions: Awaited<ReturnType<typeof completionsOf>>;
}

/** n8n on SQLite in its own folder, with the workflow imported and active; its webhook address. */
const startN8n = async (folder: string): Promise<System> => {
  const port = benchPort();
  const env = {
    ...process.env,
    N8N_USER_FOLDER: folder,
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_ENCRYPTION_KEY: 'a'.repeat(32),
    DB_TYPE: 'sqlite',
    // n8n's recommended SQLite setting: a pool of connections, which turns WAL on.
    DB_SQLITE_POOL_SIZE: process.env.BENCH_N8N_SQLITE_POOL_SIZE ?? '4',
    N8N_LOG_LEVEL: 'warn',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_RUNNERS_ENABLED: 'false',
    N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
    EXECUTIONS_MODE: 'regular',
    NODE_ENV: 'production',
  };
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'workflow.json');
  writeFileSync(file, JSON.stringify(n8nWorkflow()));
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [N8N_BIN, ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  cli('import:workflow', `--input=${file}`);
  cli('update:workflow', `--id=${WORKFLOW_ID}`, '--active=true');
  const child = spawn(process.execPath, [N8N_BIN, 'start'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${base}/healthz`, 60, 'n8n');
  const url = `${base}/webhook/bench`;
  // Active once its webhook answers (n8n registers active workflows after it listens).
  for (let i = 0; (await hook(url)) === null; i++) {
    if (i > 300) throw new Error('the n8n workflow did not become active');
    await sleep(100);
  }
  const completions = await completionsOf(
    join(folder, '.n8n', 'database.sqlite'),
    "select count(*) as n from execution_entity where status = 'success'",
  );
  const instance: Instance = {
    base,
    processes: [child],
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
  return { name: 'n8n', instance, url, completions };
};

/** Conveyor on SQLite with the same three steps; its webhook address. */
const startConveyor = async (folder: string): Promise<System> => {
  const databaseUrl = join(folder, 'conveyor.db');
  const instance = await start(databaseUrl, 0);
  const { url } = await publishFlow(instance.base, { datastore: false });
  return { name: 'Conveyor', instance, url, completions: await completionsOf(databaseUrl, SUCCESSFUL_RUNS) };
};

interface Figures {
  readonly completedPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly peakRssMb: number;
  readonly runs: number;
}

/** Closed loop for SECONDS, then until every acknowledged call's execution finished. */
const phase = async (system: System): Promise<Figures> => {
  const before = await system.completions.count();
  const ackedBefore = acknowledged();
  const peakRss = rssSampler(system.instance);
  const latencies: number[] = [];
  const startedAt = performance.now();
  const deadline = startedAt + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const ms = await hook(system.url);
        if (ms !== null) latencies.push(ms);
      }
    }),
  );
  const runs = acknowledged() - ackedBefore;
  await system.completions.waitFor(before + runs, 30 * 60_000);
  const seconds = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    completedPerSecond: runs / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    peakRssMb: peakRss(),
    runs,
  };
};

const describe = (name: string, f: Figures) =>
  `  ${name.padEnd(8)} ${fmt(f.completedPerSecond).padStart(8)} executions/s, ack p50 ${fmt(f.p50)} ms, ` +
  `p99 ${fmt(f.p99)} ms, peak RSS ${fmt(f.peakRssMb)} MB (${f.runs} runs)`;

const main = async () => {
  installN8n();
  console.log(
    `n8n ${N8N_VERSION} and Conveyor, SQLite, one process each, webhook → set field → filter; ` +
      `${CONCURRENCY} senders for ${SECONDS} s per phase, then until drained; ${ROUNDS} rounds, node ${process.version}`,
  );
  const folder = mkdtempSync(join(tmpdir(), 'conveyor-compare-'));
  const systems: System[] = [];
  try {
    systems.push(await startN8n(join(folder, 'n8n')));
    systems.push(await startConveyor(folder));
    // A short first phase each, left out: code not yet optimised, caches empty.
    for (const system of systems) {
      const countBefore = await system.completions.count();
      const ackedBefore = acknowledged();
      const warm = performance.now() + 3000;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (performance.now() < warm) await hook(system.url);
        }),
      );
      await system.completions.waitFor(countBefore + acknowledged() - ackedBefore, 30 * 60_000);
    }
    const unacknowledged = failuresSince();
    const results = new Map<string, Figures[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round}`);
      for (const system of systems) {
        const figures = await phase(system);
        results.set(system.name, [...(results.get(system.name) ?? []), figures]);
        console.log(describe(system.name, figures));
      }
    }
    const mean = (name: string) => {
      const all = results.get(name) ?? [];
      return all.reduce((sum, f) => sum + f.completedPerSecond, 0) / Math.max(1, all.length);
    };
    console.log(
      `Conveyor completes ${fmt(mean('Conveyor') / mean('n8n'))}× as many executions a second as n8n ` +
        `(${fmt(mean('Conveyor'))} against ${fmt(mean('n8n'))}, the mean of ${ROUNDS} rounds).`,
    );
    console.log(`webhook calls not acknowledged: ${describeFailures(unacknowledged())}`);
  } finally {
    for (const system of systems) {
      await system.completions.close();
      await system.instance.stop();
    }
    rmSync(folder, { recursive: true, force: true });
  }
};

await main();
