/**
 * `npm run bench`: starts Conveyor as separate processes, publishes a webhook → formatter → filter →
 * datastore flow, sends webhooks, and prints what a user would measure. SQLite with one process
 * always; Postgres with a server and two workers when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is
 * set. Every number comes from this one run on this machine.
 *
 * Phases per database, in this order; BENCH_PHASES (a comma-separated list, e.g. `cold` or
 * `overload`) runs only those named:
 *   1. cold: the first seconds of fresh processes, before any warm-up (scripts/bench-overload.ts).
 *   Then BENCH_WARMUP_SECONDS (default 3; 0 for none) of webhooks at BENCH_RATE whose figures are
 *   left out (a fresh process's first seconds run unoptimised code), and:
 *   2. latency: webhooks at a fixed rate (BENCH_RATE, default 500/s) for BENCH_SECONDS; ack p50/p99.
 *   3. sustained: webhooks at a fixed rate for BENCH_SECONDS, each database at its target
 *      (BENCH_SUSTAIN_RATE, default 1000/s, on SQLite; BENCH_PG_SUSTAIN_RATE, default 500/s, on Postgres);
 *      executions completed per second meanwhile and the backlog left at the end. A rate is
 *      sustained when the executions keep pace with the webhooks and no backlog builds up.
 *   4. throughput: webhooks as fast as BENCH_CONCURRENCY senders go for BENCH_SECONDS; requests/s,
 *      completed executions/s while sending, time to drain the backlog, RSS of every process, and
 *      CPU per execution of every process (and of the local PostgreSQL's processes for the bench).
 *   5. overload: three times the sustained target, in an open loop (scripts/bench-overload.ts).
 *   6. reads under load: GET /flows and GET /executions by BENCH_READERS clients while webhooks
 *      arrive at BENCH_READ_LOAD_RATE (scripts/bench-reads.ts); p50/p99 of each read.
 *   7. loop: a webhook → loop over 100 items → formatter flow; item-steps a second
 *      (scripts/bench-loop.ts: BENCH_LOOP_RUNS, BENCH_LOOP_RATE).
 *   8. soak (SQLite only, when BENCH_SOAK_RUNS is set, e.g. 100000): that many webhooks at
 *      BENCH_SOAK_RATE (default 800/s); the server's RSS sampled as the runs complete, to show
 *      whether memory stays flat.
 *
 * Other settings: BENCH_SKIP_SQLITE=1 (Postgres only), BENCH_NODE_FLAGS (extra node flags for
 * Conveyor's processes), BENCH_PROFILE=dir (CPU profiles of Conveyor's processes, and the top of each printed). Conveyor's
 * processes get the environment the bench runs in, so any of its settings can be tried.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { acknowledged, describeFailures, failuresSince, hook, openLoop } from './bench-load.js';
import { loopPhase } from './bench-loop.js';
import { type Completions, coldPhase, overloadPhase } from './bench-overload.js';
import {
  BENCH_DATABASE,
  completionsOf,
  cpuMeter,
  databaseMeter,
  fmt,
  type Instance,
  publishFlow,
  rssMb,
  rssSampler,
  SUCCESSFUL_RUNS,
  sleep,
  start,
} from './bench-processes.js';
import { READ_LOAD_RATE, readsUnderLoad } from './bench-reads.js';
import { profileTop } from './profile-top.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SUSTAIN_RATE = Number(process.env.BENCH_SUSTAIN_RATE ?? 1000);
const PG_SUSTAIN_RATE = Number(process.env.BENCH_PG_SUSTAIN_RATE ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const SOAK_RUNS = Number(process.env.BENCH_SOAK_RUNS ?? 0);
const SOAK_RATE = Number(process.env.BENCH_SOAK_RATE ?? 800);
const POSTGRES = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const PROFILES = process.env.BENCH_PROFILE;
const ALL_PHASES = ['cold', 'latency', 'sustained', 'throughput', 'overload', 'reads', 'loop'];
const PHASES = new Set(process.env.BENCH_PHASES?.split(',').map((phase) => phase.trim()) ?? ALL_PHASES);
for (const phase of PHASES) {
  if (!ALL_PHASES.includes(phase))
    throw new Error(`BENCH_PHASES: no phase ${phase} (phases: ${ALL_PHASES.join(', ')})`);
}

/** Open loop at the target rate: do completions keep pace, or does a backlog build up? */
const sustainedPhase = async (instance: Instance, url: string, completions: Completions, rate: number) => {
  const before = await completions.count();
  const peakRss = rssSampler(instance);
  let done = 0;
  const sending = await openLoop(url, rate, SECONDS, async () => {
    done = (await completions.count()) - before;
  });
  const peakRssMb = peakRss();
  const drainStart = performance.now();
  await completions.waitFor(before + sending.requests);
  return {
    completedPerSecond: done / sending.sendSeconds,
    backlog: sending.requests - done,
    drainSeconds: (performance.now() - drainStart) / 1000,
    p99: sending.p99,
    peakRssMb,
  };
};

/** Closed loop as fast as the senders go: throughput, completion rate, drain and memory. */
const throughputPhase = async (
  instance: Instance,
  url: string,
  completions: Completions,
  databaseUrl: string,
  postgres: boolean,
) => {
  const before = await completions.count();
  const ackedBefore = acknowledged();
  const database = await databaseMeter(instance, databaseUrl, postgres);
  const cpu = cpuMeter(instance);
  const peakRss = rssSampler(instance);
  const deadline = performance.now() + SECONDS * 1000;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) await hook(url);
    }),
  );
  const sendSeconds = (performance.now() - startedAt) / 1000;
  const requests = acknowledged() - ackedBefore;
  const doneWhileSending = (await completions.count()) - before;
  const drainStart = performance.now();
  await completions.waitFor(before + requests);
  const drainSeconds = (performance.now() - drainStart) / 1000;
  const totalSeconds = (performance.now() - startedAt) / 1000;
  const cpuUsed = cpu();
  return {
    peakRssMb: peakRss(),
    cpu: cpuUsed,
    database: await database(),
    requestsPerSecond: requests / sendSeconds,
    completedPerSecondWhileSending: doneWhileSending / sendSeconds,
    completedPerSecondOverall: requests / totalSeconds,
    drainSeconds,
    requests,
  };
};

/**
 * Many runs at a rate the process sustains: RSS after each tenth of them. Flat means the numbers
 * stop growing once the first tenth has warmed the process up.
 */
const soakPhase = async (instance: Instance, url: string, completions: Completions) => {
  const server = instance.processes[0]?.pid;
  const before = await completions.count();
  const samples: { runs: number; rssMb: number }[] = [];
  const step = SOAK_RUNS / 10;
  const pending = new Set<Promise<unknown>>();
  const startedAt = performance.now();
  for (let i = 0; i < SOAK_RUNS; i++) {
    const wait = startedAt + (i * 1000) / SOAK_RATE - performance.now();
    if (wait > 0) await sleep(wait);
    const call = hook(url).finally(() => pending.delete(call));
    pending.add(call);
    if ((i + 1) % step === 0) {
      await Promise.all(pending);
      await completions.waitFor(before + i + 1);
      samples.push({ runs: (await completions.count()) - before, rssMb: rssMb(server) });
    }
  }
  return { samples, seconds: (performance.now() - startedAt) / 1000 };
};

const bench = async (label: string, databaseUrl: string, workers: number, sustainRate: number) => {
  const profiledSince = Date.now();
  const instance = await start(databaseUrl, workers);
  const completions = await completionsOf(databaseUrl, SUCCESSFUL_RUNS);
  const unacknowledged = failuresSince();
  // Calls acknowledged by this instance: each is one run it must finish.
  const ackedBefore = acknowledged();
  const runsTaken = () => acknowledged() - ackedBefore;
  try {
    const { url, token } = await publishFlow(instance.base, { datastore: true });
    console.log(`\n${label}: flow published, measuring`);
    if (PHASES.has('cold')) await coldPhase(label, url);
    // Steady state is what the next phases measure: the first seconds of a fresh process (code not
    // yet optimised by the JIT, caches and pools empty) are sent and left out of every figure.
    const steady = [...PHASES].some((phase) => phase !== 'cold');
    if (steady && WARMUP_SECONDS > 0) await openLoop(url, RATE, WARMUP_SECONDS);
    // Each phase starts from an empty queue.
    await completions.waitFor(runsTaken());
    if (PHASES.has('latency')) {
      const latency = await openLoop(url, RATE, SECONDS);
      console.log(
        `  webhook ack at ${RATE}/s: p50 ${fmt(latency.p50)} ms, p99 ${fmt(latency.p99)} ms (${latency.requests} requests)`,
      );
      await completions.waitFor(runsTaken());
    }
    if (PHASES.has('sustained')) {
      const sustained = await sustainedPhase(instance, url, completions, sustainRate);
      console.log(
        `  sustained at ${sustainRate} webhooks/s: ${fmt(sustained.completedPerSecond)} completed 4-step executions/s, ` +
          `backlog at the end ${sustained.backlog} (drained in ${fmt(sustained.drainSeconds)} s), ack p99 ${fmt(sustained.p99)} ms, ` +
          `peak RSS ${fmt(sustained.peakRssMb)} MB`,
      );
    }
    if (PHASES.has('throughput')) {
      const throughput = await throughputPhase(instance, url, completions, databaseUrl, workers > 0);
      console.log(`  webhook requests/s (${CONCURRENCY} senders): ${fmt(throughput.requestsPerSecond)}`);
      console.log(`  completed 4-step executions/s while sending: ${fmt(throughput.completedPerSecondWhileSending)}`);
      console.log(`  completed executions/s, send + drain: ${fmt(throughput.completedPerSecondOverall)}`);
      console.log(`  time to drain the backlog: ${fmt(throughput.drainSeconds)} s (${throughput.requests} runs sent)`);
      console.log(`  peak RSS of all processes (throughput phase): ${fmt(throughput.peakRssMb)} MB`);
      const perRun = (seconds: number) => `${((seconds * 1000) / throughput.requests).toFixed(2)} ms`;
      const names = ['server', ...Array.from({ length: workers }, (_, i) => `worker ${i + 1}`)];
      const shares = [
        ...throughput.cpu.processes.map((seconds, i) => `${names[i]} ${perRun(seconds)}`),
        ...(workers > 0 ? [`postgres ${perRun(throughput.cpu.postgres)}`] : []),
        `bench client ${perRun(throughput.cpu.client)}`,
      ];
      console.log(`  CPU per execution (throughput phase): ${shares.join(', ')}`);
      const perExecution = (count: number) => (count / throughput.requests).toFixed(2);
      const { statements, commits, transactions } = throughput.database;
      // On Postgres the server only takes webhooks, in statements that commit by themselves; the
      // transactions of every process (pg-boss's too) come from PostgreSQL's own statistics.
      console.log(
        workers > 0
          ? `  database per execution (throughput phase): the server's webhook intake ${perExecution(statements)} ` +
              `statements; PostgreSQL, every process: ${perExecution(transactions)} transactions`
          : `  database per execution (throughput phase): ${perExecution(statements)} statements, ` +
              `${perExecution(commits)} commits`,
      );
    }
    if (PHASES.has('overload')) await overloadPhase(instance, url, completions, sustainRate);
    if (PHASES.has('reads')) {
      const { figures, loaded } = await readsUnderLoad(instance.base, token, () =>
        openLoop(url, READ_LOAD_RATE, SECONDS),
      );
      const reads = figures.reads.map((r) => `${r.name} p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms (${r.count})`);
      console.log(
        `  API reads under ${READ_LOAD_RATE} webhooks/s (${await completions.count()} runs stored): ` +
          `${reads.join('; ')}; ${figures.failed} failed; webhook ack p99 meanwhile ${fmt(loaded.p99)} ms`,
      );
    }
    if (PHASES.has('loop')) {
      await completions.waitFor(runsTaken());
      await loopPhase(instance.base, token, completions);
    }
    if (SOAK_RUNS > 0 && workers === 0) {
      const soak = await soakPhase(instance, url, completions);
      const samples = soak.samples.map((sample) => `${sample.runs}: ${fmt(sample.rssMb)} MB`).join(', ');
      console.log(`  soak at ${SOAK_RATE} webhooks/s for ${fmt(soak.seconds)} s, RSS after executions ${samples}`);
    }
    console.log(`  webhook calls not acknowledged, all phases: ${describeFailures(unacknowledged())}`);
  } finally {
    await completions.close();
    await instance.stop();
  }
  if (PROFILES) printProfiles(PROFILES, profiledSince);
};

/** The top of each CPU profile written since `sinceMs` (one per process, at its exit). */
const printProfiles = (dir: string, sinceMs: number) => {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const path = join(dir, file);
    if (statSync(path).mtimeMs < sinceMs) continue;
    console.log(`  CPU profile ${path}, most time spent in:`);
    for (const line of profileTop(path, 15)) console.log(`    ${line}`);
  }
};

const main = async () => {
  console.log(
    `Conveyor benchmark: phases ${[...PHASES].join(', ')}; ${SECONDS} s per phase after a ${WARMUP_SECONDS} s ` +
      `warm-up at ${RATE}/s, node ${process.version}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'conveyor-bench-'));
  try {
    if (process.env.BENCH_SKIP_SQLITE) console.log('SQLite skipped (BENCH_SKIP_SQLITE).');
    else await bench('SQLite, one process', join(dir, 'bench.db'), 0, SUSTAIN_RATE);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (POSTGRES) {
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    await admin.query(`drop database if exists ${BENCH_DATABASE}`);
    await admin.query(`create database ${BENCH_DATABASE}`);
    await admin.end();
    const url = new URL(POSTGRES);
    url.pathname = `/${BENCH_DATABASE}`;
    await bench('PostgreSQL, server + 2 workers', url.toString(), 2, PG_SUSTAIN_RATE);
  } else {
    console.log('\nPostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a server this may use.');
  }
};

await main();
