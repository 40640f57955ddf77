import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { errorMessage } from '../../core/domain/errors.js';
import type { ExecutionStatus } from '../../core/domain/execution.js';
import type { Logger } from '../../ports/logger.js';
import type { Metrics } from '../../ports/metrics.js';

/** What a scrape reads from the database: figures every process shares, whoever did the work. */
export interface ScrapeSources {
  readonly queueDepth: () => Promise<Readonly<Record<string, number>>>;
  readonly executionsByStatus: () => Promise<Readonly<Record<ExecutionStatus, number>>>;
  /** This process's statements and commits to the database since it opened it. */
  readonly databaseCounts: () => Readonly<{ statements: number; commits: number }>;
}

/** The garbage collections prom-client's default metrics time, by kind. */
const GC_KINDS = ['major', 'minor', 'incremental', 'weakcb'] as const;

/**
 * Prometheus figures in a registry of this instance's own, never prom-client's global one: tests
 * (and embedders) run several instances in one process, and each must count only its own.
 *
 * Every family has a sample from the first scrape on: a series that does not exist reads as "no
 * data" rather than 0, so alerts and rates on it (`conveyor_queue_depth > 100`) would stay silent.
 * `queues` are the queue names whose series start at 0.
 */
export const createPrometheusMetrics = (
  sources: ScrapeSources,
  logger: Logger,
  { queues }: { readonly queues: readonly string[] },
): Metrics => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const gc = registry.getSingleMetric('nodejs_gc_duration_seconds');
  if (gc instanceof Histogram) for (const kind of GC_KINDS) gc.zero({ kind });

  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, matched route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  // The scrape's own series, which its first answer is about to count.
  http.zero({ method: 'GET', route: '/metrics', status_code: '200' });
  const jobs = new Histogram({
    name: 'conveyor_job_duration_seconds',
    help: 'Time job handlers of this process took, by queue and outcome.',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  for (const queue of queues) {
    for (const outcome of ['completed', 'failed']) jobs.zero({ queue, outcome });
  }
  // A failing source must not fail the scrape: the other figures are still worth having, and the
  // gauge keeps its last value.
  const collect = async <T>(what: string, read: () => Promise<T>, apply: (value: T) => void) => {
    try {
      apply(await read());
    } catch (error) {
      logger.warn({ err: errorMessage(error) }, `metrics: reading ${what} failed`);
    }
  };
  const queueDepth = new Gauge({
    name: 'conveyor_queue_depth',
    help: 'Jobs not yet done (waiting, delayed or running), by queue; read from the queue on scrape.',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      await collect('the queue depth', sources.queueDepth, (depth) => {
        this.reset();
        for (const queue of queues) this.set({ queue }, 0);
        for (const [queue, count] of Object.entries(depth)) this.set({ queue }, count);
      });
    },
  });
  for (const queue of queues) queueDepth.set({ queue }, 0);
  new Gauge({
    name: 'conveyor_executions',
    help: 'Executions stored (test runs included), by status; read from the database on scrape.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      await collect('executions by status', sources.executionsByStatus, (counts) => {
        for (const [status, count] of Object.entries(counts)) this.set({ status }, count);
      });
    },
  });

  const databaseCounter = (
    name: string,
    help: string,
    read: (counts: { statements: number; commits: number }) => number,
  ) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read(sources.databaseCounts()));
      },
    });
  databaseCounter(
    'conveyor_database_statements_total',
    'Statements this process sent to the database (on Postgres each is a round trip).',
    (counts) => counts.statements,
  );
  databaseCounter(
    'conveyor_database_commits_total',
    'Commits this process made: on SQLite group commits (one per batch of writes), on Postgres those of explicit transactions (a statement outside one commits by itself).',
    (counts) => counts.commits,
  );

  return {
    observeHttp({ method, route, status, seconds }) {
      http.observe({ method, route, status_code: String(status) }, seconds);
    },
    observeJob({ queue, outcome, seconds }) {
      jobs.observe({ queue, outcome }, seconds);
    },
    async expose() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
};
