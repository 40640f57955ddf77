/**
 * `npm run bench`'s phases for the first seconds and for more load than the instance can take:
 *   - cold: webhooks at BENCH_COLD_RATE (default BENCH_RATE) for BENCH_COLD_SECONDS (default 10)
 *     right after the processes start and the flow is published, before any warm-up; ack p50/p99
 *     per second, so slow first seconds show against the later ones.
 *   - overload: webhooks at three times the database's sustained target (BENCH_OVERLOAD_RATE, else
 *     3 × BENCH_SUSTAIN_RATE on SQLite and 3 × BENCH_PG_SUSTAIN_RATE on Postgres) for
 *     BENCH_OVERLOAD_SECONDS (default BENCH_SECONDS); completed executions/s while sending, ack
 *     p50/p99, the calls refused (503, 429) and those that failed on the socket, peak RSS, and how
 *     long the accepted runs took to finish afterwards.
 * Both drive the server over HTTP only, so they measure any build of it alike.
 */

import { acknowledged, describeFailures, failuresSince, openLoop } from './bench-load.js';
import { fmt, type Instance, percentile, rssSampler } from './bench-processes.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const COLD_RATE = Number(process.env.BENCH_COLD_RATE ?? RATE);
const COLD_SECONDS = Number(process.env.BENCH_COLD_SECONDS ?? 10);
const OVERLOAD_SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? SECONDS);
const overloadRate = (sustainRate: number) => Number(process.env.BENCH_OVERLOAD_RATE ?? 3 * sustainRate);

/** Counts the instance's finished runs, and waits until it reaches a number. */
export interface Completions {
  count(): Promise<number>;
  waitFor(count: number): Promise<void>;
}

/** The first seconds of a fresh instance at an ordinary rate, second by second. */
export const coldPhase = async (label: string, url: string) => {
  const refused = failuresSince();
  const loop = await openLoop(url, COLD_RATE, COLD_SECONDS);
  const seconds = Array.from({ length: Math.ceil(COLD_SECONDS) }, (_, second) => {
    const latencies = loop.acks
      .filter((ack) => ack.sentAt >= second * 1000 && ack.sentAt < (second + 1) * 1000)
      .map((ack) => ack.ms)
      .sort((a, b) => a - b);
    return `${second + 1}: ${fmt(percentile(latencies, 50))}/${fmt(percentile(latencies, 99))}`;
  });
  console.log(
    `  ${label} cold start at ${COLD_RATE} webhooks/s, no warm-up: ack p50 ${fmt(loop.p50)} ms, ` +
      `p99 ${fmt(loop.p99)} ms (${loop.requests} acknowledged of ${loop.offered}); not acknowledged: ${describeFailures(refused())}`,
  );
  console.log(`    ack p50/p99 ms by second sent: ${seconds.join(', ')}`);
  return loop.requests;
};

/**
 * Three times what the database sustains, in an open loop: how much of its capacity the instance
 * still delivers, how soon it answers, what it refuses, and how much memory it takes meanwhile.
 */
export const overloadPhase = async (instance: Instance, url: string, completions: Completions, sustainRate: number) => {
  const rate = overloadRate(sustainRate);
  const before = await completions.count();
  const ackedBefore = acknowledged();
  const refused = failuresSince();
  const peakRss = rssSampler(instance);
  let doneWhileSending = 0;
  const loop = await openLoop(url, rate, OVERLOAD_SECONDS, async () => {
    doneWhileSending = (await completions.count()) - before;
  });
  const peakRssMb = peakRss();
  const accepted = acknowledged() - ackedBefore;
  const drainStart = performance.now();
  await completions.waitFor(before + accepted);
  const failed = refused();
  const busy = failed.get('HTTP 503') ?? 0;
  const limited = failed.get('HTTP 429') ?? 0;
  const other = [...failed].filter(([reason]) => reason !== 'HTTP 503' && reason !== 'HTTP 429');
  const completedPerSecond = doneWhileSending / loop.sendSeconds;
  console.log(
    `  overload at ${rate} webhooks/s for ${OVERLOAD_SECONDS} s (sent at ${fmt(loop.offered / loop.sendSeconds)}/s): ` +
      `${fmt(completedPerSecond)} completed executions/s while sending (${fmt((100 * completedPerSecond) / sustainRate)}% of ${sustainRate}/s), ` +
      `ack p50 ${fmt(loop.p50)} ms, p99 ${fmt(loop.p99)} ms (${loop.requests} acknowledged), ` +
      `${busy} × 503, ${limited} × 429, other failures: ${describeFailures(new Map(other))}, ` +
      `peak RSS ${fmt(peakRssMb)} MB, accepted runs finished ${fmt((performance.now() - drainStart) / 1000)} s after the last answer`,
  );
};
