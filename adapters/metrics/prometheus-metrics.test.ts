import { describe, expect, it } from 'vitest';
import type { JobHandler, JobQueue } from '../../ports/job-queue.js';
import { CapturingLogger } from '../../test/support/capturing-logger.js';
import { measuredJobQueue } from './measured-job-queue.js';
import { createPrometheusMetrics, type ScrapeSources } from './prometheus-metrics.js';

const sources = (overrides: Partial<ScrapeSources> = {}): ScrapeSources => ({
  queueDepth: async () => ({ 'execution.run': 3 }),
  executionsByStatus: async () => ({ running: 1, waiting: 0, success: 5, failure: 2 }),
  databaseCounts: () => ({ statements: 0, commits: 0 }),
  ...overrides,
});

/** A queue that keeps the handlers given to `work`, to call them by hand. */
const handRunQueue = () => {
  const handlers = new Map<string, JobHandler>();
  const queue: JobQueue = {
    send: async () => 'id',
    schedule: async () => {},
    unschedule: async () => {},
    work: async (name, handler) => {
      handlers.set(name, handler);
    },
    depth: async () => ({}),
    prepare: async () => {},
    stop: async () => {},
  };
  return { queue, handlers };
};

describe('Prometheus metrics', () => {
  it('keeps each instance in a registry of its own', async () => {
    const one = createPrometheusMetrics(sources(), new CapturingLogger(), { queues: [] });
    const two = createPrometheusMetrics(sources(), new CapturingLogger(), { queues: [] });
    one.observeHttp({ method: 'GET', route: '/api/v1/flows', status: 200, seconds: 0.01 });
    expect((await one.expose()).body).toContain('route="/api/v1/flows"');
    expect((await two.expose()).body).not.toContain('route="/api/v1/flows"');
  });

  it('reads the database statements and commits of the process at each scrape', async () => {
    const counts = { statements: 12, commits: 3 };
    const metrics = createPrometheusMetrics(sources({ databaseCounts: () => counts }), new CapturingLogger(), {
      queues: [],
    });
    expect((await metrics.expose()).body).toContain('conveyor_database_statements_total 12');
    counts.statements = 20;
    counts.commits = 5;
    const { body } = await metrics.expose();
    expect(body).toContain('conveyor_database_statements_total 20');
    expect(body).toContain('conveyor_database_commits_total 5');
  });

  it('still answers a scrape when a database figure cannot be read, and logs why', async () => {
    const logger = new CapturingLogger();
    const metrics = createPrometheusMetrics(
      sources({
        queueDepth: async () => {
          throw new Error('connection refused');
        },
      }),
      logger,
      { queues: [] },
    );
    const { body } = await metrics.expose();
    expect(body).toContain('conveyor_executions{status="success"} 5');
    expect(body).toContain('# TYPE conveyor_queue_depth gauge');
    expect(body).not.toContain('conveyor_queue_depth{');
    expect(logger.entries).toContainEqual({
      level: 'warn',
      fields: { err: 'connection refused' },
      message: 'metrics: reading the queue depth failed',
    });
  });

  it('drops queues that emptied from the depth gauge', async () => {
    let depth: Record<string, number> = { 'flow.trigger': 2 };
    const metrics = createPrometheusMetrics(sources({ queueDepth: async () => depth }), new CapturingLogger(), {
      queues: [],
    });
    expect((await metrics.expose()).body).toContain('conveyor_queue_depth{queue="flow.trigger"} 2');
    depth = {};
    expect((await metrics.expose()).body).not.toContain('conveyor_queue_depth{queue="flow.trigger"}');
  });

  it('reports 0 for every known queue, from the first scrape, even an empty or unreadable one', async () => {
    let depth: Record<string, number> = { 'execution.run': 4, 'other.queue': 1 };
    const queues = ['execution.run', 'flow.trigger'];
    const metrics = createPrometheusMetrics(sources({ queueDepth: async () => depth }), new CapturingLogger(), {
      queues,
    });
    let body = (await metrics.expose()).body;
    expect(body).toContain('conveyor_queue_depth{queue="execution.run"} 4');
    expect(body).toContain('conveyor_queue_depth{queue="flow.trigger"} 0');
    expect(body).toContain('conveyor_queue_depth{queue="other.queue"} 1');
    depth = {};
    body = (await metrics.expose()).body;
    expect(body).toContain('conveyor_queue_depth{queue="execution.run"} 0');
    expect(body).not.toContain('other.queue');
    // Job timings of those queues start at 0 too.
    expect(body).toContain('conveyor_job_duration_seconds_count{queue="flow.trigger",outcome="failed"} 0');

    const unreadable = createPrometheusMetrics(
      sources({
        queueDepth: async () => {
          throw new Error('connection refused');
        },
      }),
      new CapturingLogger(),
      { queues },
    );
    expect((await unreadable.expose()).body).toContain('conveyor_queue_depth{queue="flow.trigger"} 0');
  });

  it('times job handlers by queue and outcome, and passes failures on to the queue', async () => {
    const metrics = createPrometheusMetrics(sources(), new CapturingLogger(), { queues: [] });
    const { queue, handlers } = handRunQueue();
    const measured = measuredJobQueue(queue, metrics);
    await measured.work(
      'execution.run',
      async (job) => {
        if (job.attempt === 1) throw new Error('step failed');
      },
      { concurrency: 1 },
    );
    const handler = handlers.get('execution.run') as JobHandler;
    const job = { id: 'j1', name: 'execution.run', payload: {} };
    await expect(handler({ ...job, attempt: 1 })).rejects.toThrow('step failed');
    await handler({ ...job, attempt: 2 });
    const { body } = await metrics.expose();
    expect(body).toContain('conveyor_job_duration_seconds_count{queue="execution.run",outcome="failed"} 1');
    expect(body).toContain('conveyor_job_duration_seconds_count{queue="execution.run",outcome="completed"} 1');
  });
});
