/**
 * `npm run bench:listener`: the throughput of a listener trigger through the whole engine. Starts
 * Conveyor from the build (SQLite: one process; PostgreSQL: a server that runs no flows and two
 * workers), publishes a RabbitMQ `newMessage` → MySQL `insertRow` flow over HTTP (a queue and a
 * table of its own on the machine's RabbitMQ and MariaDB; test/support/listener-pipeline.ts), then
 * publishes BENCH_MESSAGES messages (default 5,000) at once and waits for every run to finish.
 *
 * Printed per database: messages/s from the first publish to the last run's end; when the last
 * run was stored (the intake: the listener's pace); and the p50/p95 of a run's time from being
 * stored (its message accepted) to finishing. Every message must have made exactly one row.
 *
 * PostgreSQL: TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres, in a fresh
 * schema (and one for pg-boss) dropped afterwards. BENCH_PREFETCH sets the trigger's prefetch (its
 * default otherwise); BENCH_SKIP_SQLITE=1 or BENCH_SKIP_POSTGRES=1 leave one out. Conveyor's
 * processes get the environment the bench runs in, so any of its settings can be tried.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPostgresSchema, freshPostgresSchema } from '../test/support/databases.js';
import { openPipeline, type Pipeline, until } from '../test/support/listener-pipeline.js';
import { fmt, percentile, start } from './bench-processes.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
const PREFETCH = process.env.BENCH_PREFETCH ? Number(process.env.BENCH_PREFETCH) : undefined;
const POSTGRES = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Row {
  readonly database: string;
  readonly processes: number;
  readonly messages: number;
  readonly seconds: number;
  readonly storedSeconds: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
}

/** What the finished batch took, from the executions' own times (epoch ms, the same machine's clock). */
const measure = async (pipeline: Pipeline, startedAt: number) => {
  const executions = await pipeline.allExecutions();
  const ends = executions.map((e) => e.finishedAt ?? Number.NaN);
  const latencies = executions.map((e) => (e.finishedAt ?? Number.NaN) - e.createdAt).sort((a, b) => a - b);
  return {
    seconds: (Math.max(...ends) - startedAt) / 1000,
    storedSeconds: (Math.max(...executions.map((e) => e.createdAt)) - startedAt) / 1000,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
  };
};

const bench = async (database: string, databaseUrl: string, workers: number, env: Record<string, string> = {}) => {
  const instance = await start(databaseUrl, workers, { ALLOW_PRIVATE_NETWORKS: 'true', ...env });
  try {
    const pipeline = await openPipeline(instance.base, { ...(PREFETCH !== undefined && { prefetch: PREFETCH }) });
    try {
      const startedAt = Date.now();
      await pipeline.publish(0, MESSAGES);
      const counts = await until(
        `${MESSAGES} runs to finish`,
        async () => ({ success: await pipeline.executions('success'), failure: await pipeline.executions('failure') }),
        (c) => c.success + c.failure >= MESSAGES,
        30 * 60_000,
        500,
      );
      const rows = await pipeline.rows();
      if (counts.failure > 0 || rows.total !== MESSAGES || rows.ids !== MESSAGES)
        throw new Error(`${database}: ${JSON.stringify({ counts, rows })}, expected ${MESSAGES} runs and rows`);
      const row: Row = {
        database,
        processes: 1 + workers,
        messages: MESSAGES,
        ...(await measure(pipeline, startedAt)),
      };
      console.log(`  ${database}: done in ${fmt(row.seconds)} s`);
      return row;
    } finally {
      await pipeline.close();
    }
  } finally {
    await instance.stop();
  }
};

const print = (rows: readonly Row[]) => {
  const header = ['database', 'processes', 'messages', 'seconds', 'messages/s', 'stored by (s)', 'p50 ms', 'p95 ms'];
  const cells = rows.map((r) => [
    r.database,
    String(r.processes),
    String(r.messages),
    fmt(r.seconds),
    fmt(r.messages / r.seconds),
    fmt(r.storedSeconds),
    String(Math.round(r.p50Ms)),
    String(Math.round(r.p95Ms)),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]?.length ?? 0)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const c of cells) console.log(line(c));
  console.log(
    '\nseconds: first publish → last run finished; stored by: first publish → last run stored (the listener’s intake);' +
      '\np50/p95: a run’s time from being stored to finishing (the backlog’s wait included).',
  );
};

const main = async () => {
  console.log(
    `Listener benchmark: ${MESSAGES} messages, RabbitMQ newMessage → MySQL insertRow, prefetch ${PREFETCH ?? 'default'}, node ${process.version}`,
  );
  const rows: Row[] = [];
  if (!process.env.BENCH_SKIP_SQLITE) {
    const dir = mkdtempSync(join(tmpdir(), 'conveyor-bench-listener-'));
    try {
      rows.push(await bench('SQLite', join(dir, 'bench.db'), 0));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!process.env.BENCH_SKIP_POSTGRES) {
    const database = await freshPostgresSchema(POSTGRES, 'bench');
    const bossSchema = `bench_boss_${randomBytes(4).toString('hex')}`;
    try {
      rows.push(await bench('PostgreSQL', database.url, 2, { QUEUE_PG_BOSS_SCHEMA: bossSchema }));
    } finally {
      await database.drop();
      await dropPostgresSchema(POSTGRES, bossSchema);
    }
  }
  print(rows);
};

await main();
